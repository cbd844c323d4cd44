import { ChannelRefusedError, type Channel, type ChannelFactory } from './channel';

/** Browser mode: the engine behind `tandem web`, on the host that served this page. */
export function webSocketChannelFactory(token: () => string | undefined): ChannelFactory {
  return () =>
    new Promise<Channel>((resolve, reject) => {
      const accessToken = token();
      if (!accessToken) {
        reject(new ChannelRefusedError(true));
        return;
      }
      const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
      const url = `${scheme}://${window.location.host}/ws?token=${encodeURIComponent(accessToken)}`;
      let socket: WebSocket;
      try {
        socket = new WebSocket(url);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      socket.binaryType = 'arraybuffer';
      let opened = false;
      const channel: Channel = {
        send: (data) => {
          if (socket.readyState === WebSocket.OPEN) socket.send(data);
        },
        close: () => socket.close(),
        onmessage: null,
        onclose: null,
      };
      socket.onopen = () => {
        opened = true;
        resolve(channel);
      };
      socket.onmessage = (event: MessageEvent<string | ArrayBuffer>) => channel.onmessage?.(event.data);
      socket.onclose = (event) => {
        if (!opened) {
          void whyRefused(accessToken).then(reject, () => reject(new Error(event.reason || 'Could not reach the Tandem engine.')));
          return;
        }
        channel.onclose?.(event.reason || `closed (${event.code})`);
      };
    });
}

/**
 * A refused WebSocket looks the same to the page whatever the reason; the server answers a
 * plain GET of the same address with 401 when the token is wrong. Anything else (no answer:
 * the engine is gone) means "keep trying".
 */
async function whyRefused(token: string): Promise<Error> {
  const response = await fetch(`/ws?token=${encodeURIComponent(token)}`, { cache: 'no-store' });
  if (response.status === 401) return new ChannelRefusedError(false);
  throw new Error(`unexpected ${response.status}`);
}

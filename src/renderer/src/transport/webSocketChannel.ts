import type { Channel, ChannelFactory } from './channel';

/** Browser mode: the engine behind `tandem web`, on the host that served this page. */
export function webSocketChannelFactory(token: () => string | undefined): ChannelFactory {
  return () =>
    new Promise<Channel>((resolve, reject) => {
      const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
      const url = `${scheme}://${window.location.host}/ws?token=${encodeURIComponent(token() ?? '')}`;
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
      socket.onerror = () => {
        if (!opened) reject(new Error('Could not reach the Tandem engine.'));
      };
      socket.onclose = (event) => {
        if (!opened) {
          reject(new Error(event.reason || 'Could not reach the Tandem engine.'));
          return;
        }
        channel.onclose?.(event.reason || `closed (${event.code})`);
      };
    });
}

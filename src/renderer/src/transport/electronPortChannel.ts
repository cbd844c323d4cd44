import type { Channel, ChannelFactory } from './channel';

const PORT_TIMEOUT_MS = 5_000;

/**
 * Electron: the preload hands us a MessagePort. `connect()` asks for one; it arrives as a
 * window message from our own window (`event.source === window`), never from a frame.
 */
export function electronPortChannelFactory(bridge: TandemElectronBridge): ChannelFactory {
  return () =>
    new Promise<Channel>((resolve, reject) => {
      const timer = window.setTimeout(() => {
        window.removeEventListener('message', onWindowMessage);
        reject(new Error('The Tandem engine did not answer.'));
      }, PORT_TIMEOUT_MS);

      function onWindowMessage(event: MessageEvent): void {
        const data: unknown = event.data;
        if (event.source !== window || typeof data !== 'object' || data === null) return;
        if ((data as { type?: unknown }).type !== 'tandem-port') return;
        const port = event.ports[0];
        if (!port) return;
        window.clearTimeout(timer);
        window.removeEventListener('message', onWindowMessage);
        resolve(wrapPort(port));
      }

      window.addEventListener('message', onWindowMessage);
      try {
        bridge.connect();
      } catch (error) {
        window.clearTimeout(timer);
        window.removeEventListener('message', onWindowMessage);
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
}

function wrapPort(port: MessagePort): Channel {
  let closed = false;
  const channel: Channel = {
    send: (data) => {
      if (!closed) port.postMessage(data);
    },
    close: () => {
      if (closed) return;
      closed = true;
      port.close();
      channel.onclose?.('closed');
    },
    onmessage: null,
    onclose: null,
  };
  port.onmessage = (event: MessageEvent<unknown>) => {
    const data = event.data;
    if (typeof data === 'string' || data instanceof ArrayBuffer || data instanceof Uint8Array) {
      channel.onmessage?.(data);
    }
  };
  // Chromium fires 'close' on a MessagePort when the other end goes away (engine restart).
  port.addEventListener('close', () => {
    if (closed) return;
    closed = true;
    channel.onclose?.('the engine closed the port');
  });
  port.start();
  return channel;
}

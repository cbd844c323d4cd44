import { ipcMain, MessageChannelMain, type BrowserWindow, type IpcMainEvent } from 'electron';
import { ClientConnection } from '../engine/clientConnection';
import type { Engine } from '../engine/engine';
import { mayConnect } from './senderCheck';

export const CONNECT_CHANNEL = 'tandem:connect';
export const PORT_CHANNEL = 'tandem:port';

/**
 * The Electron transport. Its one ipcMain handler checks that the sender is the main frame
 * of our window showing our page, then hands that renderer a MessagePort; everything after
 * (requests, events, pty bytes) flows over the port, validated by ClientConnection.
 */
export function installIpcBridge(engine: Engine, window: () => BrowserWindow | undefined, isOwnPage: (url: string) => boolean): void {
  /** The live connection of each renderer, ended when it reloads or goes away. */
  const connections = new Map<number, () => void>();
  const watched = new Set<number>();
  ipcMain.on(CONNECT_CHANNEL, (event: IpcMainEvent, ...args: unknown[]) => {
    const current = window();
    const frame = event.senderFrame;
    const request = {
      fromOurWindow: current !== undefined && event.sender === current.webContents,
      fromMainFrame: frame !== null && current !== undefined && frame === current.webContents.mainFrame,
      frameUrl: frame?.url ?? '',
      argumentCount: args.length,
    };
    if (!mayConnect(request, isOwnPage)) return;

    // A reload asks again: the previous page's connection is over.
    connections.get(event.sender.id)?.();
    const { port1, port2 } = new MessageChannelMain();
    const connection = new ClientConnection(engine, {
      sendText: (text) => port1.postMessage(text),
      sendBinary: (bytes) => port1.postMessage(bytes),
    });
    port1.on('message', ({ data }) => {
      if (typeof data === 'string') void connection.handleText(data);
      else if (data instanceof Uint8Array) connection.handleBinary(data);
      else if (data instanceof ArrayBuffer) connection.handleBinary(new Uint8Array(data));
    });
    const end = () => {
      connection.disconnect();
      port1.close();
      connections.delete(senderId);
    };
    const senderId = event.sender.id;
    connections.set(senderId, end);
    port1.on('close', () => connection.disconnect());
    port1.start();
    event.sender.postMessage(PORT_CHANNEL, null, [port2]);
    if (!watched.has(senderId)) {
      watched.add(senderId);
      event.sender.once('destroyed', () => {
        connections.get(senderId)?.();
        watched.delete(senderId);
      });
    }
  });
}

/** Data as it arrives from the engine: JSON text or a binary frame. */
export type ChannelData = string | ArrayBuffer | Uint8Array;

/**
 * A connected, ordered, message-based pipe to the engine. Both transports (a WebSocket in
 * browser mode, a MessagePort in Electron) are adapted to this one shape.
 */
export interface Channel {
  send(data: string | Uint8Array): void;
  close(): void;
  onmessage: ((data: ChannelData) => void) | null;
  /** Called once when the pipe is gone, whoever closed it. */
  onclose: ((reason: string) => void) | null;
}

/** Opens a new channel; rejects when the engine cannot be reached. */
export type ChannelFactory = () => Promise<Channel>;

/** The engine refused this page's credentials (browser mode: no token, or an old one): retrying cannot help. */
export class ChannelRefusedError extends Error {
  constructor(readonly tokenMissing: boolean) {
    super(tokenMissing ? 'This address has no access token.' : 'The access token of this page is not the one the engine expects.');
    this.name = 'ChannelRefusedError';
  }
}

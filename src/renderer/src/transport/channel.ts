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

import { createConnection, type Socket } from 'node:net';
import type { OwnerAddress } from './ownerLock';
import { readLines, type OwnerResponse } from './ownerProtocol';

/** A client's connection to the owner of a history database (ownerProtocol.ts for the lines). */
export class OwnerConnection {
  private closed = false;

  private constructor(
    private readonly socket: Socket,
    onResponse: (response: OwnerResponse) => void,
    onClose: () => void,
  ) {
    readLines(socket, (line) => {
      try {
        const response = JSON.parse(line) as OwnerResponse;
        if (typeof response?.id === 'number') onResponse(response);
      } catch {
        socket.destroy();
      }
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      this.closed = true;
      onClose();
    });
  }

  /** Connects to the owner, or resolves null when nobody listens there (the owner died or is not started). */
  static connect(address: OwnerAddress, onResponse: (response: OwnerResponse) => void, onClose: () => void): Promise<OwnerConnection | null> {
    return new Promise((settle) => {
      const socket = createConnection(address.endpoint);
      socket.once('error', () => settle(null));
      socket.once('connect', () => {
        socket.removeAllListeners('error');
        settle(new OwnerConnection(socket, onResponse, onClose));
      });
    });
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  /** Sends a request line made by `encodeRequest`. */
  send(line: string): void {
    this.socket.write(line);
  }

  close(): void {
    this.socket.destroy();
  }
}

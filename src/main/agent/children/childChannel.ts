import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The line between a parent agent and one child (`tandem agent --parent SOCKET`): a Unix
 * socket in a folder only this user can enter. The child writes its event stream there, one
 * JSON object a line, and reads the answers to its approval requests. One child connects;
 * the folder goes when the channel is closed.
 */
export class ChildChannel {
  readonly path: string;
  private readonly dir: string;
  private readonly server: Server;
  private socket: Socket | undefined;
  private closed = false;

  constructor(
    private readonly onMessage: (message: Record<string, unknown>) => void,
    private readonly onGone: () => void,
  ) {
    // mkdtemp makes the folder 0700: nobody else can reach the socket in it.
    this.dir = mkdtempSync(join(tmpdir(), 'tandem-child-'));
    this.path = join(this.dir, 'parent.sock');
    this.server = createServer((socket) => this.accept(socket));
    this.server.on('error', () => this.close());
    this.server.listen(this.path);
  }

  /** A file in the channel's private folder (the child's policy snippet). */
  file(name: string): string {
    return join(this.dir, name);
  }

  send(message: object): void {
    if (this.socket && !this.socket.destroyed) this.socket.write(`${JSON.stringify(message)}\n`);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.socket?.destroy();
    this.server.close();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private accept(socket: Socket): void {
    if (this.socket || this.closed) {
      socket.destroy();
      return;
    }
    this.socket = socket;
    socket.setEncoding('utf8');
    let pending = '';
    socket.on('data', (chunk: string) => {
      pending += chunk;
      let end: number;
      while ((end = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, end);
        pending = pending.slice(end + 1);
        const message = parseLine(line);
        if (message) this.onMessage(message);
      }
    });
    socket.on('close', () => {
      if (!this.closed) this.onGone();
    });
    socket.on('error', () => undefined);
  }
}

function parseLine(line: string): Record<string, unknown> | undefined {
  if (!line.trim()) return undefined;
  try {
    const value: unknown = JSON.parse(line);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

import { writeSync } from 'node:fs';
import type { IPty } from 'node-pty';

/** What node-pty (1.1) keeps to itself on Unix: the master's fd and the queue its writes wait in. */
interface UnixPtyInternals {
  _fd?: unknown;
  _writeStream?: { _writeQueue?: unknown };
}

/**
 * Writes to a pty at once, on the engine's own thread. node-pty writes every key with
 * `fs.write` on libuv's thread pool, so a keystroke waits for a free thread: behind whatever
 * file I/O is in flight (a session save, the audit log, a slow disk), and at best for a
 * handoff to a thread and back. The master's fd is non-blocking, so a direct write takes what
 * the kernel has room for and never blocks. The rest (a large paste), everything while
 * node-pty still has bytes queued (so the order holds), and everything on a pty without
 * those internals (Windows' ConPTY, another node-pty version) goes through node-pty as before.
 */
export function writeToPty(pty: IPty, bytes: Buffer): void {
  const written = writeDirectly(pty as unknown as UnixPtyInternals, bytes);
  if (written < bytes.length) pty.write(written === 0 ? bytes : bytes.subarray(written));
}

function writeDirectly(pty: UnixPtyInternals, bytes: Buffer): number {
  const queue = pty._writeStream?._writeQueue;
  if (typeof pty._fd !== 'number' || !Array.isArray(queue) || queue.length > 0) return 0;
  try {
    return writeSync(pty._fd, bytes);
  } catch {
    // EAGAIN: the kernel's buffer is full. Any other error node-pty meets and reports on its own write.
    return 0;
  }
}

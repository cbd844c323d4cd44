import { MIRROR_FLUSH_BYTES, MIRROR_FLUSH_MS } from '../../pty/flowPolicy';
import type { MirrorCommand } from './mirrorProtocol';

type QueuedCommand = MirrorCommand | { op: 'write'; mirror: number; chunks: Uint8Array[]; length: number };

/**
 * Commands for the mirror thread, waiting to be posted. Consecutive output of one mirror is
 * joined into one buffer, and `due` is called once per turn of the event loop — a little later
 * for output alone, so a flood goes over in fewer, bigger messages.
 */
export class MirrorCommandQueue {
  private queue: QueuedCommand[] = [];
  private queuedBytes = 0;
  /** A flush is due on the next turn of the event loop. */
  private soon: NodeJS.Immediate | undefined;
  /** Output alone is flushed after MIRROR_FLUSH_MS (or once MIRROR_FLUSH_BYTES wait). */
  private later: NodeJS.Timeout | undefined;

  constructor(private readonly due: () => void) {}

  get isEmpty(): boolean {
    return this.queue.length === 0;
  }

  add(command: MirrorCommand): void {
    if (command.op === 'write' && typeof command.data !== 'string') {
      const last = this.queue[this.queue.length - 1];
      if (last?.op === 'write' && last.mirror === command.mirror && 'chunks' in last) {
        last.chunks.push(command.data);
        last.length += command.data.byteLength;
      } else {
        this.queue.push({ op: 'write', mirror: command.mirror, chunks: [command.data], length: command.data.byteLength });
      }
      this.queuedBytes += command.data.byteLength;
      if (this.queuedBytes < MIRROR_FLUSH_BYTES) {
        this.later ??= setTimeout(() => this.due(), MIRROR_FLUSH_MS);
        return;
      }
    } else {
      this.queue.push(command);
    }
    this.soon ??= setImmediate(() => this.due());
  }

  /** No flush is due any more (the caller is flushing now, or keeping the commands). */
  cancelTimers(): void {
    if (this.soon) clearImmediate(this.soon);
    clearTimeout(this.later);
    this.soon = undefined;
    this.later = undefined;
  }

  /** Everything queued, as messages ready to post, with the buffers to transfer; the queue is left empty. */
  take(): { commands: MirrorCommand[]; transfer: ArrayBuffer[] } {
    const queued = this.queue;
    this.queue = [];
    this.queuedBytes = 0;
    const transfer: ArrayBuffer[] = [];
    const commands = queued.map((command): MirrorCommand => {
      if (!('chunks' in command)) return command;
      // A fresh buffer: a pty read's Buffer may share memory with others, and a transferred
      // view would take its whole backing store along.
      const data = new Uint8Array(command.length);
      let offset = 0;
      for (const chunk of command.chunks) {
        data.set(chunk, offset);
        offset += chunk.byteLength;
      }
      transfer.push(data.buffer);
      return { op: 'write', mirror: command.mirror, data };
    });
    return { commands, transfer };
  }

  clear(): void {
    this.cancelTimers();
    this.queue = [];
    this.queuedBytes = 0;
  }
}

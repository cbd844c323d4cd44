import { BATCH_DELAY_MS, BATCH_MAX_BYTES } from './flowPolicy';
/**
 * Coalesces pty output before it crosses to the renderer: a burst is sent at most every
 * `maxDelayMs` or whenever `maxBytes` have piled up, while a lone chunk after a quiet
 * period (a keystroke echo) goes out on the next tick so typing never waits for a timer.
 *
 * Frames never exceed the room the renderer's window has left (`room`); what does not fit
 * stays here until `flushNow()` is called when the window opens again.
 *
 * Flushes end on a UTF-8 character boundary: a trailing partial sequence is held for the
 * next flush (and sent anyway if nothing follows, so invalid bytes are never stuck).
 */
export interface BatcherOptions {
  maxDelayMs?: number;
  maxBytes?: number;
  /** Bytes that may be sent now; unlimited when absent. */
  room?: () => number;
  /** The most one frame may hold now (at least `maxBytes`): more when the client is owed a piece it should parse whole. */
  frameLimit?: () => number;
  /** After every flush, whether or not it sent anything. */
  flushed?: () => void;
  /**
   * Where a frame that could end at `end` should end instead (at most `end`; a shorter last
   * frame waits one more period, like a partial character). `bytes` holds the frame's bytes
   * and maybe more; `pending` is how much is waiting in all.
   */
  frameEnd?: (bytes: Uint8Array, end: number, pending: number) => number;
}

export class OutputBatcher {
  private chunks: Uint8Array[] = [];
  private size = 0;
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private lastFlushAt = 0;
  private heldBackOnce = false;
  private readonly maxDelayMs: number;
  private readonly maxBytes: number;
  private readonly room: () => number;
  private readonly frameLimit: () => number;
  private readonly flushed: () => void;
  private readonly frameEnd: (bytes: Uint8Array, end: number, pending: number) => number;

  constructor(
    /** One frame, and how many bytes are still waiting after it. */
    private readonly send: (bytes: Uint8Array, remaining: number) => void,
    options: BatcherOptions = {},
  ) {
    this.maxDelayMs = options.maxDelayMs ?? BATCH_DELAY_MS;
    this.maxBytes = options.maxBytes ?? BATCH_MAX_BYTES;
    this.room = options.room ?? (() => Infinity);
    const frameLimit = options.frameLimit;
    this.frameLimit = frameLimit ? () => Math.max(this.maxBytes, frameLimit()) : () => this.maxBytes;
    this.flushed = options.flushed ?? (() => {});
    this.frameEnd = options.frameEnd ?? ((_bytes, end) => end);
  }

  /** Bytes waiting to be sent. */
  get pending(): number {
    return this.size;
  }

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.size += chunk.length;
    this.heldBackOnce = false;
    // A shut window sends nothing: a flood being skipped keeps megabytes waiting, read 4 KB at a time.
    const room = this.room();
    if (room === 0) return;
    if (this.size >= this.maxBytes) {
      this.flush();
      return;
    }
    if (this.timer || this.immediate) return;
    const sinceLast = performance.now() - this.lastFlushAt;
    if (sinceLast >= this.maxDelayMs) {
      this.immediate = setImmediate(() => {
        this.immediate = undefined;
        this.flush();
      });
    } else {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.flush();
      }, this.maxDelayMs - sinceLast);
    }
  }

  /** Send what the window has room for now (it just opened again). */
  flushNow(): void {
    this.flush();
  }

  /** Send everything buffered now, partial characters included (the shell exited). */
  flushAll(): void {
    this.heldBackOnce = true;
    this.flush();
  }

  /** The first chunk, made to hold at least `bytes` bytes by joining the chunks that follow it into it. */
  private headOf(bytes: number): Uint8Array {
    let count = 0;
    let size = 0;
    while (size < bytes) size += this.chunks[count++]!.length;
    if (count > 1) this.chunks.splice(0, count, concat(this.chunks.slice(0, count), size));
    return this.chunks[0]!;
  }

  /** Drop the first `count` bytes waiting (the renderer would only have thrown them away). */
  dropFront(count: number): void {
    let left = Math.min(count, this.size);
    this.size -= left;
    while (left > 0) {
      const first = this.chunks[0]!;
      if (first.length <= left) {
        this.chunks.shift();
        left -= first.length;
      } else {
        this.chunks[0] = first.subarray(left);
        left = 0;
      }
    }
  }

  /** Puts `bytes` in front of what is waiting (they go out first). */
  pushFront(bytes: Uint8Array): void {
    this.chunks.unshift(bytes);
    this.size += bytes.length;
  }

  /** Everything waiting, taken out (the caller sends it another way). */
  takePending(): Uint8Array {
    const all = this.chunks.length === 1 ? this.chunks[0]! : concat(this.chunks, this.size);
    this.discardPending();
    return all;
  }

  /** Drop whatever is buffered (it was delivered another way, or the pane is closing). */
  discardPending(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = undefined;
    this.immediate = undefined;
    this.chunks = [];
    this.size = 0;
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = undefined;
    this.immediate = undefined;
    while (this.size > 0) {
      const room = this.room();
      if (room <= 0) break;
      const end = Math.min(this.size, this.frameLimit(), room);
      // Only what this frame needs is joined: a flood being skipped may have megabytes waiting.
      const head = this.headOf(end);
      let cut = utf8SafeEnd(head, this.frameEnd(head, end, this.size));
      const tailIsPartial = cut < end && end === this.size;
      if (tailIsPartial && this.heldBackOnce) cut = end;
      if (cut === 0 && end < this.size) break; // less room than one character
      if (cut > 0) {
        this.dropFront(cut);
        this.send(head.subarray(0, cut), this.size);
        this.lastFlushAt = performance.now();
      }
      if (tailIsPartial && cut < end) {
        // Only a partial character is left: give it one more period to complete.
        this.heldBackOnce = true;
        this.timer = setTimeout(() => {
          this.timer = undefined;
          this.flush();
        }, this.maxDelayMs);
        break;
      }
    }
    this.flushed();
  }
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

/**
 * The largest index <= end at which `bytes` can be cut without splitting a UTF-8 sequence
 * that is still complete-able. Invalid bytes are not held back.
 */
export function utf8SafeEnd(bytes: Uint8Array, end: number): number {
  // Walk back over at most 3 continuation bytes to the lead byte of the last sequence.
  let i = end - 1;
  let continuation = 0;
  while (i >= 0 && continuation < 3 && (bytes[i]! & 0xc0) === 0x80) {
    i--;
    continuation++;
  }
  if (i < 0) return end;
  const lead = bytes[i]!;
  const needed = lead >= 0xf0 && lead <= 0xf4 ? 3 : lead >= 0xe0 ? (lead <= 0xef ? 2 : 0) : lead >= 0xc2 ? 1 : 0;
  if (needed > continuation) return i;
  return end;
}

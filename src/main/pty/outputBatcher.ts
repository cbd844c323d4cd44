/**
 * Coalesces pty output before it crosses to the renderer: a burst is sent at most every
 * `maxDelayMs` or whenever `maxBytes` have piled up, while a lone chunk after a quiet
 * period (a keystroke echo) goes out on the next tick so typing never waits for a timer.
 *
 * Flushes end on a UTF-8 character boundary: a trailing partial sequence is held for the
 * next flush (and sent anyway if nothing follows, so invalid bytes are never stuck).
 */
export class OutputBatcher {
  private chunks: Uint8Array[] = [];
  private size = 0;
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private lastFlushAt = 0;
  private heldBackOnce = false;

  constructor(
    private readonly send: (bytes: Uint8Array) => void,
    private readonly maxDelayMs = 5,
    private readonly maxBytes = 200 * 1024,
  ) {}

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.size += chunk.length;
    this.heldBackOnce = false;
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

  /** Send everything buffered now (pane closing, client re-attaching). */
  flushAll(): void {
    this.heldBackOnce = true;
    this.flush();
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
      const all = this.chunks.length === 1 ? this.chunks[0]! : concat(this.chunks, this.size);
      const end = Math.min(all.length, this.maxBytes);
      let cut = utf8SafeEnd(all, end);
      const tailIsPartial = cut < end && end === all.length;
      if (tailIsPartial && this.heldBackOnce) cut = end;
      if (cut > 0) {
        this.send(all.subarray(0, cut));
        this.lastFlushAt = performance.now();
      }
      const rest = all.subarray(cut);
      this.chunks = rest.length > 0 ? [rest] : [];
      this.size = rest.length;
      if (tailIsPartial && cut < end) {
        // Only a partial character is left: give it one more period to complete.
        this.heldBackOnce = true;
        this.timer = setTimeout(() => {
          this.timer = undefined;
          this.flush();
        }, this.maxDelayMs);
        return;
      }
    }
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

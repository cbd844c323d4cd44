/** How many blocks' counts are kept (the oldest go first; their text left the scrollback long ago). */
const MAX_BLOCKS = 2_000;
/** How many recent blocks keep how their output began (a huge output's start, once the scrollback lost it). */
const MAX_HEADS = 100;
/** How much of a block's beginning is kept: the first lines, within a byte budget. */
const HEAD_LINES = 100;
const HEAD_BYTES = 16 * 1024;

export interface PrintedCount {
  /** Lines printed (a last line without its newline counts). */
  lines: number;
  /** Bytes of text printed: without carriage returns and escape sequences (colours, cursor moves). */
  bytes: number;
  /** How the output began (its first lines, as printed), while it is kept. */
  head?: string;
}

const ESC = 0x1b;
const BEL = 0x07;
const LF = 0x0a;
const CR = 0x0d;

/** Where the counter is in an escape sequence, across chunks. */
const enum Escape {
  None,
  /** After ESC. */
  Start,
  /** In a CSI sequence (ESC [ … final byte). */
  Csi,
  /** In an OSC, DCS or similar string (ends with BEL or ESC \). */
  String,
  /** ESC inside a string: `\` ends it. */
  StringEsc,
}

/** The first lines of a block's output as text: a carriage return starts its line over (progress bars). */
class HeadCapture {
  private readonly bytes: number[] = [];
  private lineStart = 0;
  private lines = 0;
  private carriageReturn = false;

  get full(): boolean {
    return this.lines >= HEAD_LINES || this.bytes.length >= HEAD_BYTES;
  }

  push(byte: number): void {
    if (byte === CR) {
      this.carriageReturn = true;
      return;
    }
    if (byte === LF) {
      this.carriageReturn = false;
      this.bytes.push(LF);
      this.lineStart = this.bytes.length;
      this.lines++;
      return;
    }
    if (this.carriageReturn) {
      this.bytes.length = this.lineStart;
      this.carriageReturn = false;
    }
    this.bytes.push(byte);
  }

  text(): string {
    // A full head ends at its last whole line; one long line ends where the budget did,
    // without the half of a character cut there.
    const end = this.full && this.lineStart > 0 ? this.lineStart : this.bytes.length;
    const text = Buffer.from(this.bytes.slice(0, end)).toString('utf8');
    return end === this.lineStart ? text.replace(/\n$/, '') : text.replace(/\uFFFD$/, '');
  }
}

/**
 * Lines and bytes each block printed, counted as its output streams by, and how it began.
 * The mirror keeps only the end of a huge output (its scrollback); these still tell the
 * model the true totals (`seq 1 200000`: 200,000 lines) and show it the real first lines.
 * One pass over the bytes; the beginning is copied only until it is full.
 */
export class PrintedTally {
  private readonly counts = new Map<string, { lines: number; bytes: number; open: boolean }>();
  private readonly heads = new Map<string, HeadCapture>();
  private escape = Escape.None;

  add(blockId: string, chunk: Uint8Array): void {
    let count = this.counts.get(blockId);
    if (!count) {
      count = { lines: 0, bytes: 0, open: false };
      this.counts.set(blockId, count);
      if (this.counts.size > MAX_BLOCKS) this.counts.delete(this.counts.keys().next().value!);
      this.heads.set(blockId, new HeadCapture());
      if (this.heads.size > MAX_HEADS) this.heads.delete(this.heads.keys().next().value!);
    }
    let head = this.heads.get(blockId);
    if (head?.full) head = undefined;
    let escape = this.escape;
    let i = 0;
    while (i < chunk.length) {
      if (escape === Escape.None && !head) {
        // Text up to the next escape sequence (most of a huge output): only line ends to count.
        const next = chunk.indexOf(ESC, i);
        const end = next === -1 ? chunk.length : next;
        countText(count, chunk, i, end);
        if (next === -1) break;
        if (chunk[next + 1] === 0x5b) {
          // A CSI sequence (colours, mostly): to its final byte in one go.
          const final = csiFinal(chunk, next + 2);
          escape = final === -1 ? Escape.Csi : Escape.None;
          i = final === -1 ? chunk.length : final + 1;
          continue;
        }
        escape = Escape.Start;
        i = next + 1;
        continue;
      }
      const byte = chunk[i++]!;
      switch (escape) {
        case Escape.None:
          if (byte === ESC) {
            escape = Escape.Start;
            break;
          }
          countText(count, chunk, i - 1, i);
          if (head && byte !== BEL) {
            head.push(byte);
            if (head.full) head = undefined;
          }
          break;
        case Escape.Start:
          escape = byte === 0x5b ? Escape.Csi : byte === 0x5d || byte === 0x50 || byte === 0x5f || byte === 0x5e ? Escape.String : Escape.None;
          break;
        case Escape.Csi:
          if (byte >= 0x40 && byte <= 0x7e) escape = Escape.None;
          break;
        case Escape.String:
          if (byte === BEL) escape = Escape.None;
          else if (byte === ESC) escape = Escape.StringEsc;
          break;
        case Escape.StringEsc:
          escape = byte === 0x5c ? Escape.None : Escape.String;
          break;
      }
    }
    this.escape = escape;
  }

  /** What the block printed so far; undefined for a block that printed nothing. */
  of(blockId: string): PrintedCount | undefined {
    const count = this.counts.get(blockId);
    if (!count) return undefined;
    const head = this.heads.get(blockId);
    return { lines: count.lines + (count.open ? 1 : 0), bytes: count.bytes, ...(head && { head: head.text() }) };
  }
}

/** Below this, a stretch of text is counted byte by byte; above, with `indexOf` (memchr). */
const SEARCH_FROM_BYTES = 256;

/**
 * Text bytes `from`..`to` (no escape sequence in them): lines, bytes without CR and BEL, and
 * whether the last line is open. A long stretch (a flood's plain text, most of what the
 * mirror's thread reads) is counted with native searches, several times faster than a loop
 * per byte.
 */
function countText(count: { lines: number; bytes: number; open: boolean }, chunk: Uint8Array, from: number, to: number): void {
  let lines = 0;
  let skipped = 0;
  if (to - from >= SEARCH_FROM_BYTES) {
    // A Buffer's indexOf is memchr; a plain Uint8Array's (what reaches the mirror's thread) is not.
    const text = Buffer.from(chunk.buffer, chunk.byteOffset + from, to - from);
    lines = occurrences(text, LF);
    skipped = occurrences(text, CR) + occurrences(text, BEL);
  } else {
    for (let i = from; i < to; i++) {
      const byte = chunk[i]!;
      if (byte === LF) lines++;
      else if (byte === CR || byte === BEL) skipped++;
    }
  }
  count.lines += lines;
  count.bytes += to - from - skipped;
  let last = to - 1;
  while (last >= from && (chunk[last] === CR || chunk[last] === BEL)) last--;
  if (last >= from) count.open = chunk[last] !== LF;
}

function occurrences(text: Uint8Array, byte: number): number {
  let found = 0;
  for (let at = text.indexOf(byte); at !== -1; at = text.indexOf(byte, at + 1)) found++;
  return found;
}

/** The index of the final byte of a CSI sequence whose parameters start at `from`; -1 when it goes on past the chunk. */
function csiFinal(chunk: Uint8Array, from: number): number {
  for (let i = from; i < chunk.length; i++) {
    const byte = chunk[i]!;
    if (byte >= 0x40 && byte <= 0x7e) return i;
  }
  return -1;
}

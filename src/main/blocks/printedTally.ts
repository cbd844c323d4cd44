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
    if (!head && this.escape === Escape.None && chunk.indexOf(ESC) === -1) {
      this.addPlain(count, chunk);
      return;
    }
    let { lines, bytes, open } = count;
    let escape = this.escape;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!;
      switch (escape) {
        case Escape.None:
          if (byte === ESC) {
            escape = Escape.Start;
            break;
          }
          if (byte === LF) {
            lines++;
            bytes++;
            open = false;
          } else if (byte !== CR && byte !== BEL) {
            bytes++;
            open = true;
          }
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
    count.lines = lines;
    count.bytes = bytes;
    count.open = open;
  }

  /** A chunk without escape sequences (most of a huge output): only line feeds and carriage returns to count. */
  private addPlain(count: { lines: number; bytes: number; open: boolean }, chunk: Uint8Array): void {
    let lines = 0;
    let skipped = 0;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (byte === LF) lines++;
      else if (byte === CR || byte === BEL) skipped++;
    }
    count.lines += lines;
    count.bytes += chunk.length - skipped;
    let last = chunk.length - 1;
    while (last >= 0 && (chunk[last] === CR || chunk[last] === BEL)) last--;
    if (last >= 0) count.open = chunk[last] !== LF;
  }

  /** What the block printed so far; undefined for a block that printed nothing. */
  of(blockId: string): PrintedCount | undefined {
    const count = this.counts.get(blockId);
    if (!count) return undefined;
    const head = this.heads.get(blockId);
    return { lines: count.lines + (count.open ? 1 : 0), bytes: count.bytes, ...(head && { head: head.text() }) };
  }
}

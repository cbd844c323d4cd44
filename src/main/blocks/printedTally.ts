/** How many blocks' counts are kept (the oldest go first; their text left the scrollback long ago). */
const MAX_BLOCKS = 2_000;

export interface PrintedCount {
  /** Lines printed (a last line without its newline counts). */
  lines: number;
  /** Bytes of text printed: without carriage returns and escape sequences (colours, cursor moves). */
  bytes: number;
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

/**
 * Lines and bytes each block printed, counted as its output streams by. The mirror keeps only
 * the end of a huge output (its scrollback); these counts still tell the model the true
 * totals (`seq 1 200000`: 200,000 lines). One pass over the bytes, no allocation.
 */
export class PrintedTally {
  private readonly counts = new Map<string, PrintedCount & { open: boolean }>();
  private escape = Escape.None;

  add(blockId: string, chunk: Uint8Array): void {
    let count = this.counts.get(blockId);
    if (!count) {
      count = { lines: 0, bytes: 0, open: false };
      this.counts.set(blockId, count);
      if (this.counts.size > MAX_BLOCKS) this.counts.delete(this.counts.keys().next().value!);
    }
    let { lines, bytes, open } = count;
    let escape = this.escape;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!;
      switch (escape) {
        case Escape.None:
          if (byte === ESC) escape = Escape.Start;
          else if (byte === LF) {
            lines++;
            bytes++;
            open = false;
          } else if (byte !== CR && byte !== BEL) {
            bytes++;
            open = true;
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

  /** What the block printed so far; undefined for a block that printed nothing. */
  of(blockId: string): PrintedCount | undefined {
    const count = this.counts.get(blockId);
    return count && { lines: count.lines + (count.open ? 1 : 0), bytes: count.bytes };
  }
}

import { PlainTextScanner, type LineEnd } from './plainTextScanner';

/** What the caller needs to know about the terminal when a plain run could begin. */
export interface DeferralTerminal {
  readonly cols: number;
  /** Rows the buffer keeps: screen plus scrollback. */
  readonly keptRows: number;
  /** Nothing written is still waiting to be parsed. */
  readonly idle: boolean;
  /** Normal screen, autowrap on, insert and origin modes off, no scroll region. */
  readonly plainScreen: boolean;
}

/** Held output beyond this is parsed even if none of it can be dropped (one endless line). */
const MAX_HELD_BYTES = 8 * 1024 * 1024;
/** Written ahead of the kept rows when earlier ones were dropped: the attributes at the cut. */
const RESET_ATTRIBUTES = new TextEncoder().encode('\x1b[0m');

/**
 * Output for a headless mirror that nobody reads while it floods by (`cat` of a big log)
 * is held instead of parsed, and lines that would have scrolled out of the scrollback
 * before anyone looks are dropped unparsed: once the rows after a line end certainly
 * fill the whole buffer, nothing before it can survive in the terminal anyway.
 *
 * Only plain text is held (see PlainTextScanner): text, CR LF and SGR, starting between
 * sequences on a plain screen, so the rows kept come out exactly as if everything had been
 * parsed. A cut is made only after a line that ends with default attributes; what is kept
 * then starts with an SGR reset. Anything else, a read, a mark or a resize releases what is
 * held first, so the terminal is exact whenever it is looked at.
 */
export class DeferredPlainOutput {
  private readonly scanner = new PlainTextScanner();
  private held: Uint8Array[] = [];
  private heldBytes = 0;
  /** Run offset of held[0][0]. */
  private heldFrom = 0;
  private lineEnds: LineEnd[] = [];
  /** lineEnds before this index are gone (dropped); compacted now and then. */
  private lineEndsHead = 0;
  private dropped = false;
  /**
   * Everything the terminal was given since it was last seen on a plain screen is plain
   * text, so its screen is still plain even while it is busy parsing.
   */
  private screenKnownPlain = false;

  get holding(): boolean {
    return this.held.length > 0;
  }

  /**
   * Takes the next output. Returns what must be parsed now, in order (what was held and
   * this chunk, when it is not plain); an empty list when the chunk is held.
   */
  push(chunk: Uint8Array, terminal: DeferralTerminal): Uint8Array[] {
    if (!this.holding && this.scanner.atBoundary && (this.screenKnownPlain || (terminal.idle && terminal.plainScreen))) {
      this.scanner.beginRun(terminal.cols);
      this.screenKnownPlain = true;
    }
    this.scanner.scan(chunk);
    if (!this.scanner.plain) {
      const release = this.release();
      release.push(chunk);
      this.screenKnownPlain = false;
      return release;
    }
    this.held.push(chunk);
    this.heldBytes += chunk.byteLength;
    for (const end of this.scanner.takeLineEnds()) this.lineEnds.push(end);
    this.dropScrolledAway(terminal.keptRows);
    return this.heldBytes > MAX_HELD_BYTES ? this.release() : [];
  }

  /** The terminal gets something other than output (a restored screen, a new size). */
  screenChanged(): void {
    this.screenKnownPlain = false;
  }

  /** Everything held, to be parsed now; the run ends. */
  release(): Uint8Array[] {
    const release = this.dropped && this.held.length > 0 ? [RESET_ATTRIBUTES, ...this.held] : this.held;
    this.held = [];
    this.heldBytes = 0;
    this.heldFrom = 0;
    this.lineEnds = [];
    this.lineEndsHead = 0;
    this.dropped = false;
    this.scanner.endRun();
    return release;
  }

  /**
   * Drops everything before the last line end E (with default attributes) such that the rows
   * advanced after the line following E fill the buffer: that line may come out differently
   * when parsed from wherever the cursor is, but it and everything before it scroll away.
   */
  private dropScrolledAway(keptRows: number): void {
    const rowsNow = this.scanner.rowsSoFar;
    const ends = this.lineEnds;
    let cut = -1;
    for (let i = this.lineEndsHead; i + 1 < ends.length; i++) {
      if (rowsNow - ends[i + 1]!.rows < keptRows + 1) break;
      if (ends[i]!.defaultAttributes) cut = i;
    }
    if (cut < 0) return;
    this.dropBefore(ends[cut]!.offset);
    this.lineEndsHead = cut + 1;
    if (this.lineEndsHead > 4096 && this.lineEndsHead * 2 > ends.length) {
      this.lineEnds = ends.slice(this.lineEndsHead);
      this.lineEndsHead = 0;
    }
    this.dropped = true;
  }

  private dropBefore(offset: number): void {
    while (this.held.length > 0 && this.heldFrom + this.held[0]!.byteLength <= offset) {
      const first = this.held.shift()!;
      this.heldFrom += first.byteLength;
      this.heldBytes -= first.byteLength;
    }
    const first = this.held[0];
    if (first && offset > this.heldFrom) {
      const skip = offset - this.heldFrom;
      this.held[0] = first.subarray(skip);
      this.heldFrom = offset;
      this.heldBytes -= skip;
    }
  }
}

import { LINE_END_NOTE_BYTES, MIRROR_MAX_HELD_BYTES } from '../../pty/flowPolicy';
import { PlainTextScanner } from './plainTextScanner';

/** What the caller needs to know about the terminal when a plain run could begin. */
export interface DeferralTerminal {
  readonly cols: number;
  readonly rows: number;
  /** Rows the buffer keeps: screen plus scrollback. */
  readonly keptRows: number;
  /** Nothing written is still waiting to be parsed. */
  readonly idle: boolean;
  /** Normal screen, autowrap on, insert and origin modes off, no scroll region. */
  readonly plainScreen: boolean;
}

/**
 * Output for a headless mirror that nobody reads while it floods by (`cat` of a big log)
 * is held instead of parsed, and lines that would have scrolled out of the scrollback
 * before anyone looks are dropped unparsed: once the rows after a line end certainly
 * scroll everything before it out of the buffer, it cannot survive in the terminal anyway.
 *
 * Only plain text is held (see PlainTextScanner): text, CR LF and SGR, starting between
 * sequences on a plain screen, so the rows kept come out exactly as if everything had been
 * parsed. What is kept after a cut starts with the SGR sequences that make the attributes
 * what they were there (the run's own since it began or since its last reset; see
 * PlainTextScanner). Anything else, a read, a mark or a resize releases what is held first,
 * so the terminal is exact whenever it is looked at.
 */
export class DeferredPlainOutput {
  /** Only line ends where a cut may be made are noted, LINE_END_NOTE_BYTES apart at least (`yes` ends a line every 3 bytes). */
  private readonly scanner = new PlainTextScanner(LINE_END_NOTE_BYTES);
  private held: Uint8Array[] = [];
  private heldBytes = 0;
  /** Run offset of held[0][0]. */
  private heldFrom = 0;
  /** What the kept rows need in front of them after a cut: SGR sequences, or nothing. */
  private keptPrefix: Uint8Array | undefined;
  /**
   * Everything the terminal was given since it was last seen on a plain screen is plain
   * text, so its screen is still plain even while it is busy parsing.
   */
  private screenKnownPlain = false;

  get holding(): boolean {
    return this.held.length > 0;
  }

  /**
   * A plain run could begin with the next output but for the terminal still parsing: better
   * to wait until it is idle than to parse a flood in full because it never was at a chunk's
   * start (a busy thread goes from one big chunk to the next).
   */
  waitsForIdle(terminal: DeferralTerminal): boolean {
    return !this.holding && this.scanner.atBoundary && !this.screenKnownPlain && !terminal.idle;
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
    // Rows the cursor moves down onto before the screen starts to scroll are old rows, not new
    // ones as when everything is parsed: a screen's height more must pass before a cut.
    this.dropScrolledAway(terminal.keptRows + terminal.rows + 1);
    return this.heldBytes > MIRROR_MAX_HELD_BYTES ? this.release() : [];
  }

  /** The terminal gets something other than output (a restored screen, a new size). */
  screenChanged(): void {
    this.screenKnownPlain = false;
  }

  /** Everything held, to be parsed now; the run ends. */
  release(): Uint8Array[] {
    const release = this.keptPrefix && this.held.length > 0 ? [this.keptPrefix, ...this.held] : this.held;
    this.held = [];
    this.heldBytes = 0;
    this.heldFrom = 0;
    this.keptPrefix = undefined;
    this.scanner.endRun();
    return release;
  }

  /**
   * Drops everything before the last line end E (where the attributes are known) such that
   * the rows advanced after the line following E certainly scroll everything before them out
   * of the buffer: that line may come out differently when parsed from wherever the cursor
   * is, and the cursor may first move down over rows already there, but all of it scrolls
   * away.
   */
  private dropScrolledAway(rowsNeeded: number): void {
    const rowsNow = this.scanner.rowsSoFar;
    const ends = this.scanner.lineEnds;
    let cut = -1;
    for (let i = ends.head; i < ends.end; i++) {
      if (rowsNow - ends.nextRows(i) < rowsNeeded) break;
      if (ends.prefix(i)) cut = i;
    }
    if (cut < 0) return;
    this.dropBefore(ends.offset(cut));
    const prefix = ends.prefix(cut)!;
    this.keptPrefix = prefix.length > 0 ? prefix : undefined;
    ends.dropBefore(cut + 1);
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

import { PlainTextScanner } from '../blocks/mirror/plainTextScanner';
import { LINE_COST, LINE_END_NOTE_BYTES } from '../pty/flowPolicy';

/** What the skip needs to know about the renderer's terminal. */
export interface FloodScreen {
  rows(): number;
  cols(): number;
  /** The most scrollback the renderer may keep. */
  scrollback(): number;
  /** How far the mirror has parsed the output, and whether the screen was plain there. */
  parsedScreen(): { offset: number; plain: boolean };
}

/** A pane's renderer as FloodSkip sees it: its size, the most scrollback the settings have given it, the mirror's view. */
export function floodScreen(size: () => { cols: number; rows: number }, parsedScreen: FloodScreen['parsedScreen'], options: { scrollback: number; currentScrollback?: () => number }): FloodScreen {
  let scrollback = options.scrollback;
  return {
    cols: () => size().cols,
    rows: () => size().rows,
    // The most it has been: the renderer may not have applied a smaller setting yet.
    scrollback: () => (scrollback = Math.max(scrollback, options.currentScrollback?.() ?? scrollback)),
    parsedScreen,
  };
}

/** Where output waiting for the renderer may be cut, and what the renderer needs before the rest. */
export interface FloodCut {
  /** Stream offset just after a line end: everything from the renderer's position up to here may be dropped. */
  offset: number;
  /** SGR sequences to write before the rest, so the attributes are what the skipped lines left (maybe none). */
  prefix: Uint8Array;
}

/**
 * Finds the part of a flood the renderer would only parse to throw away. Output is followed the
 * way xterm parses it (PlainTextScanner). While it is a run of plain text (printable text, CR LF,
 * SGR colours) on a plain screen (the mirror says so for an offset inside the run: plain text
 * changes no mode), every line end is noted. Once the lines after a line end E certainly scroll
 * everything before them out of the renderer's buffer, nothing between the renderer's position
 * and E can survive there, so it need not be sent.
 *
 * Lines, not rows, are counted: a line takes at least one row however wide the terminal is, so
 * a cut stays exact when the renderer's width changes while the rest is on its way. The lines
 * needed are the buffer (screen and scrollback), one screen more (the cursor may first move
 * down over rows already there, which are old rows, not new ones) and one more (the line right
 * after the cut may join what the renderer has on its last row). A height increase waits for
 * the engine in the renderer, so the rows counted here are never fewer than the renderer's.
 */
export class FloodSkip {
  private readonly scanner: PlainTextScanner;
  /** Stream offset where the current plain run began, when one is going on. */
  private runStart: number | undefined;
  private scanned = 0;
  private skippedInRun = false;

  /** `noteEvery`: line ends are noted only where a cut may be made, this many bytes apart at least. */
  constructor(
    private readonly screen: FloodScreen,
    noteEvery = LINE_END_NOTE_BYTES,
  ) {
    this.scanner = new PlainTextScanner(noteEvery);
  }

  /**
   * The next output, in stream order. Returns its line feeds when it is all part of a plain run
   * (each of its line ends is a CR LF), so the caller need not count them again; otherwise -1.
   */
  scan(chunk: Uint8Array): number {
    if (this.runStart === undefined && this.scanner.atBoundary) {
      this.scanner.beginRun(this.screen.cols());
      this.runStart = this.scanned;
    }
    const linesBefore = this.runStart === undefined ? -1 : this.scanner.linesSoFar;
    this.scanner.scan(chunk);
    this.scanned += chunk.length;
    if (this.runStart !== undefined && !this.scanner.plain) this.endRun();
    return linesBefore >= 0 && this.runStart !== undefined ? this.scanner.linesSoFar - linesBefore : -1;
  }

  /** Output up to `offset` went to the renderer: no cut can end there any more. */
  sentUpTo(offset: number): void {
    const start = this.runStart;
    if (start === undefined) return;
    const ends = this.scanner.lineEnds;
    while (ends.head < ends.end && start + ends.offset(ends.head) <= offset) ends.dropBefore(ends.head + 1);
  }

  /** The terminal was resized or replaced: the lines noted so far are forgotten. */
  reset(): void {
    this.endRun();
  }

  /**
   * What the lines a cut must leave would cost to parse (bytes plus LINE_COST a line, at the
   * run's average line length so far): read-ahead beyond its usual limit pays only when a cut
   * can come within it (not for lines of 10 KB each).
   */
  keptCost(): number {
    const start = this.runStart;
    const lines = this.scanner.linesSoFar;
    if (start === undefined || lines === 0) return Infinity;
    return this.neededLines() * ((this.scanned - start) / lines + LINE_COST);
  }

  /** Lines of the current run were skipped: the renderer is behind on it. */
  get skipping(): boolean {
    return this.skippedInRun && this.runStart !== undefined;
  }

  /** A cut from cutAfter was made. */
  cutMade(): void {
    this.skippedInRun = true;
  }

  /** Output is a plain run on a plain screen: lines may be skipped once enough follow. */
  get skippable(): boolean {
    if (this.runStart === undefined) return false;
    const parsed = this.screen.parsedScreen();
    return parsed.plain && parsed.offset >= this.runStart && parsed.offset <= this.scanned;
  }

  /**
   * The last line end after `from` and at most at `limit` where a cut may end, if the lines after
   * it are enough and it drops at least `atLeast` bytes. The renderer's parser must be between
   * sequences at `from`: the run's start, or a line end inside it (`fromLineEnd`: the bytes
   * before `from` end in CR LF). Line ends up to a cut made are forgotten; a cut too small to
   * make keeps them, for a later and larger one.
   */
  cutAfter(from: number, fromLineEnd: boolean, limit: number, atLeast = 0): FloodCut | undefined {
    const start = this.runStart;
    if (start === undefined || from < start || (from > start && !fromLineEnd) || !this.skippable) return undefined;
    const needed = this.neededLines();
    const ends = this.scanner.lineEnds;
    this.sentUpTo(from);
    const linesNow = this.scanner.linesSoFar;
    let cut = -1;
    for (let i = ends.head; i < ends.end; i++) {
      // The lines after the one that follows this line end.
      if (linesNow - ends.lines(i) - 1 < needed || start + ends.offset(i) > limit) break;
      if (ends.prefix(i)) cut = i;
    }
    if (cut < 0 || start + ends.offset(cut) - from < atLeast) return undefined;
    const found = { offset: start + ends.offset(cut), prefix: ends.prefix(cut)! };
    ends.dropBefore(cut + 1);
    return found;
  }

  /** Lines after the line that follows a cut: the buffer, a screen more, and one. */
  private neededLines(): number {
    return this.screen.scrollback() + 2 * this.screen.rows() + 1;
  }

  private endRun(): void {
    this.runStart = undefined;
    this.skippedInRun = false;
    this.scanner.endRun();
  }
}

/** Where a frame of a plain flood should end: after the last line end before `end`, if one is in its second half. */
export function lineEndBefore(bytes: Uint8Array, end: number): number {
  const lastFeed = bytes.lastIndexOf(0x0a, end - 1);
  return lastFeed >= 1 && bytes[lastFeed - 1] === 0x0d && lastFeed + 1 > end / 2 ? lastFeed + 1 : end;
}

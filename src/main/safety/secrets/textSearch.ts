/**
 * Line boundaries for the scans, found only around the places they look at. Forward searches
 * use a global regex rather than `indexOf`: in code V8 has optimized, `text.indexOf(needle,
 * from)` in a loop can cost the whole text on every call (seen with Node 20 after an earlier
 * `indexOf` on the same text), which turns a scan quadratic.
 */

const NEWLINE = /\n/g;

/** Where the next line break is at or after `from`, or -1. */
function newlineFrom(text: string, from: number): number {
  NEWLINE.lastIndex = from;
  return NEWLINE.test(text) ? NEWLINE.lastIndex - 1 : -1;
}

/**
 * Follows the line that positions, given in increasing order, fall on. Each move looks back
 * from the new position to the line's start and forward to its end, never over text an
 * earlier move looked at, so following a whole text costs one walk over it at most.
 */
export class LineTracker {
  /** Start of the current line. */
  start = 0;
  /** The line break ending the current line, or -1 when it is the last line. */
  end: number;

  constructor(private readonly text: string) {
    this.end = newlineFrom(text, 0);
  }

  /** Moves to the line holding `at` (never backwards). */
  moveTo(at: number): void {
    if (this.end === -1 || at <= this.end) return;
    let start = at;
    while (start > this.end + 1 && this.text.charCodeAt(start - 1) !== 10) start--;
    this.start = start;
    this.end = newlineFrom(this.text, at);
  }

  /** The end of the current line: its line break or the end of the text. */
  get lineEnd(): number {
    return this.end === -1 ? this.text.length : this.end;
  }
}

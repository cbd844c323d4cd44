/**
 * Forward searches for the scans. They use a global regex rather than `indexOf`: in code V8 has
 * optimized, `text.indexOf(needle, from)` in a loop can cost the whole text on every call
 * (seen with Node 20 after an earlier `indexOf` on the same text), which turns a scan quadratic.
 */

/** Where `literal` (a global regex matching exactly `length` characters) next matches at or after `from`, or -1. */
export function indexFrom(literal: RegExp, length: number, text: string, from: number): number {
  literal.lastIndex = from;
  return literal.test(text) ? literal.lastIndex - length : -1;
}

const NEWLINE = /\n/g;

/** Follows the line that positions, given in increasing order, fall on. */
export class LineTracker {
  /** Start of the current line. */
  start = 0;
  /** The line break ending the current line, or -1 when it is the last line. */
  end: number;

  constructor(private readonly text: string) {
    this.end = indexFrom(NEWLINE, 1, text, 0);
  }

  /** Moves to the line holding `at` (never backwards). */
  moveTo(at: number): void {
    while (this.end !== -1 && this.end < at) {
      this.start = this.end + 1;
      this.end = indexFrom(NEWLINE, 1, this.text, this.start);
    }
  }

  /** The end of the current line: its line break or the end of the text. */
  get lineEnd(): number {
    return this.end === -1 ? this.text.length : this.end;
  }
}

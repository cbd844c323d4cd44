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
  /** Start of the current line (see `reach`). */
  start = 0;
  /** The line break ending the current line, or -1 when it is the last line. */
  end: number;

  /**
   * `reach`: how far before a position its line's start is looked for. A line starting further
   * before the position a move goes to has `start` at `reach + 1` before it (after the true start).
   */
  constructor(
    private readonly text: string,
    private readonly reach = Infinity,
  ) {
    this.end = newlineFrom(text, 0);
  }

  /** Moves to the line holding `at` (never backwards). */
  moveTo(at: number): void {
    if (this.end === -1 || at <= this.end) return;
    const floor = Math.max(this.end + 1, at - this.reach - 1);
    let start = at;
    while (start > floor && this.text.charCodeAt(start - 1) !== 10) start--;
    this.start = start;
    this.end = newlineFrom(this.text, at);
  }

  /** The end of the current line: its line break or the end of the text. */
  get lineEnd(): number {
    return this.end === -1 ? this.text.length : this.end;
  }
}

/**
 * The ends of the lines that positions, given in increasing order, fall on, each found forward
 * from the first position past the line found last: following a whole text costs one walk over
 * it at most, and no line is walked back over to find its start (see lineStartWithin).
 */
export class LineEnds {
  /** The line found last holds the positions from `from` to its line break `end` (-1: none, the line runs to the text's end). */
  private from = 0;
  private end = -1;
  private found = false;

  constructor(private readonly text: string) {}

  /** The end of the line holding `at`: its line break, or the end of the text. */
  at(at: number): number {
    if (!this.found || at < this.from || (this.end !== -1 && at > this.end)) {
      this.from = at;
      this.end = newlineFrom(this.text, at);
      this.found = true;
    }
    return this.end === -1 ? this.text.length : this.end;
  }
}

/** The start of the line holding `at` when it is at most `within` characters before `at`, else -1. */
export function lineStartWithin(text: string, at: number, within: number): number {
  for (let k = at - 1; k >= at - within - 1; k--) {
    if (k < 0) return 0;
    if (text.charCodeAt(k) === 10) return k + 1;
  }
  return -1;
}

/** The start of the line holding `at`. */
export function lineStartOf(text: string, at: number): number {
  let k = at;
  while (k > 0 && text.charCodeAt(k - 1) !== 10) k--;
  return k;
}

/** The lines below `lineEnd` indented more than `indent` (a YAML block scalar's body), as [first character, end of the last line], or undefined. */
export function blockBelow(text: string, lineEnd: number, indent: number): [number, number] | undefined {
  let at = lineEnd + 1;
  let first = -1;
  let last = -1;
  for (let n = 0; n < 200 && at < text.length; n++) {
    let end = text.indexOf('\n', at);
    if (end === -1) end = text.length;
    let lead = at;
    while (lead < end && (text.charCodeAt(lead) === 32 || text.charCodeAt(lead) === 9)) lead++;
    const blank = lead === end || (lead === end - 1 && text[lead] === '\r');
    if (!blank && lead - at <= indent) break;
    if (!blank) {
      if (first === -1) first = lead;
      last = text[end - 1] === '\r' ? end - 1 : end;
    }
    at = end + 1;
  }
  return first === -1 ? undefined : [first, last];
}

/** Whether blanks, then `=` that starts no `==` or `=>`, follow `end`: what stood before it was a type (`NAME: Type = value`). */
export function isTypeAnnotation(text: string, end: number): boolean {
  let at = end;
  while (text.charCodeAt(at) === 32 || text.charCodeAt(at) === 9) at++;
  if (at === end || text.charCodeAt(at) !== 61) return false;
  const after = text.charCodeAt(at + 1);
  return after !== 61 && after !== 62;
}

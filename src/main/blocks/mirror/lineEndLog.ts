/**
 * The line ends of a plain run (just after each CR LF): where, how many rows and lines the run
 * had advanced by there (rows at least), and what a cut there must write first so the
 * attributes are what they were (`prefix`; undefined: not known, no cut). Typed arrays, not
 * an object per line: `yes` ends a line every three bytes.
 */
export class LineEndLog {
  private offsets: Float64Array<ArrayBuffer> = new Float64Array(1024);
  private rowCounts: Float64Array<ArrayBuffer> = new Float64Array(1024);
  private lineCounts: Float64Array<ArrayBuffer> = new Float64Array(1024);
  private nextRowCounts: Float64Array<ArrayBuffer> = new Float64Array(1024);
  private prefixes: (Uint8Array | undefined)[] = [];
  /** Entries before `head` were dropped; `end` is one past the last. */
  head = 0;
  end = 0;

  push(offset: number, rows: number, lines: number, prefix: Uint8Array | undefined): void {
    if (this.end === this.offsets.length) this.makeRoom();
    this.offsets[this.end] = offset;
    this.rowCounts[this.end] = rows;
    this.lineCounts[this.end] = lines;
    this.nextRowCounts[this.end] = Infinity;
    this.prefixes[this.end] = prefix;
    this.end++;
  }

  offset(index: number): number {
    return this.offsets[index]!;
  }

  rows(index: number): number {
    return this.rowCounts[index]!;
  }

  /** Line ends in the run up to and including this one. */
  lines(index: number): number {
    return this.lineCounts[index]!;
  }

  /** Rows advanced by the end of the line after this line end; Infinity until that line has ended. */
  nextRows(index: number): number {
    return this.nextRowCounts[index]!;
  }

  /** The line after the last noted line end ended with the run `rows` rows on. */
  nextLineEnded(rows: number): void {
    if (this.end > this.head) this.nextRowCounts[this.end - 1] = rows;
  }

  /** What a cut here writes before the lines kept (SGR sequences, maybe none); undefined: no cut here. */
  prefix(index: number): Uint8Array | undefined {
    return this.prefixes[index];
  }

  /** Forget the entries before `index`. */
  dropBefore(index: number): void {
    this.head = index;
  }

  clear(): void {
    this.head = 0;
    this.end = 0;
    this.prefixes = [];
  }

  private makeRoom(): void {
    const live = this.end - this.head;
    if (this.head >= live) {
      this.offsets.copyWithin(0, this.head, this.end);
      this.rowCounts.copyWithin(0, this.head, this.end);
      this.lineCounts.copyWithin(0, this.head, this.end);
      this.nextRowCounts.copyWithin(0, this.head, this.end);
      this.prefixes.copyWithin(0, this.head, this.end);
      this.prefixes.length = live;
    } else {
      const size = this.offsets.length * 2;
      this.offsets = grow(this.offsets, size, this.head, this.end);
      this.rowCounts = grow(this.rowCounts, size, this.head, this.end);
      this.lineCounts = grow(this.lineCounts, size, this.head, this.end);
      this.nextRowCounts = grow(this.nextRowCounts, size, this.head, this.end);
      this.prefixes = this.prefixes.slice(this.head, this.end);
    }
    this.head = 0;
    this.end = live;
  }
}

function grow(array: Float64Array<ArrayBuffer>, size: number, from: number, to: number): Float64Array<ArrayBuffer> {
  const bigger = new Float64Array(size);
  bigger.set(array.subarray(from, to));
  return bigger;
}

/**
 * How many rows a pane may show now. The engine skips output of a flood the renderer fell
 * behind on (`pane.skipped`) by how much a screen of the size it knows holds; a taller screen
 * would keep lines that were never sent. So more rows are shown only once the stream has
 * reached the engine's `pane.resized` for every size asked of it so far. Fewer rows, and
 * another width, are safe at once: a skip counts lines, and a line takes a row at any width.
 */
export class RowsAfterSkips {
  /** Rows of the engine's output as far as the stream has been parsed. */
  private streamRows: number;
  /** Sizes asked of the engine whose `pane.resized` has not been parsed yet, oldest first. */
  private pending: { rows: number }[] = [];

  constructor(rows: number) {
    this.streamRows = rows;
  }

  /** The pane runs a new shell of this size (a restart): nothing is pending. */
  reset(rows: number): void {
    this.streamRows = rows;
    this.pending = [];
  }

  /** A size was asked of the engine; call `notTaken` with the result if it refused it. */
  asked(rows: number): { rows: number } {
    const entry = { rows };
    this.pending.push(entry);
    return entry;
  }

  /** The engine did not take that size (the pane closed, the connection dropped): no `pane.resized` comes for it. */
  notTaken(entry: { rows: number }): void {
    this.pending = this.pending.filter((each) => each !== entry);
  }

  /** The stream reached a `pane.resized`. */
  engineResized(rows: number): void {
    this.pending.shift();
    this.streamRows = rows;
  }

  /** The rows to show of `wanted`, with `shown` shown now; a pane whose shell exited gets no more output. */
  allowed(wanted: number, shown: number, exited: boolean): number {
    if (wanted <= shown || exited) return wanted;
    const safe = Math.min(this.streamRows, ...this.pending.map((entry) => entry.rows));
    return Math.max(shown, Math.min(wanted, safe));
  }
}

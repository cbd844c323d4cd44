import type { IBuffer, IMarker, Terminal } from '@xterm/xterm';

/** A block's rows in the buffer (absolute line numbers, inclusive). */
export interface BlockLines {
  /** First row of the command line as typed (after the prompt). */
  top: number;
  /** Last row of the command line; output starts below it. */
  commandBottom: number;
  /** Last row of output (the cursor row while the command runs). */
  bottom: number;
}

interface BlockEntry {
  /** Row where output began (cursor row at the C mark). */
  start: IMarker;
  /** Rows between the first command row and `start`. */
  rowsAbove: number;
  /** Whether output starts on the command's own last row (cursor was not at column 0). */
  startsMidLine: boolean;
  end?: IMarker;
  endIncludesRow: boolean;
}

/**
 * xterm markers for block edges. Markers move with the buffer as it scrolls and trims, and
 * are disposed when their line leaves the scrollback; the block then has no position.
 */
export class BlockMarkers {
  private readonly entries = new Map<string, BlockEntry>();

  constructor(
    private readonly terminal: Terminal,
    private readonly onChange: () => void,
  ) {}

  has(blockId: string): boolean {
    const entry = this.entries.get(blockId);
    return entry !== undefined && !entry.start.isDisposed;
  }

  hasEnd(blockId: string): boolean {
    return this.entries.get(blockId)?.end !== undefined;
  }

  /** At the C mark: the cursor sits where the output begins. Call from a write callback. */
  markStartAtCursor(blockId: string, command: string): void {
    const buffer = this.terminal.buffer.active;
    const cursorLine = buffer.baseY + buffer.cursorY;
    const startsMidLine = buffer.cursorX > 0;
    const lastCommandRow = startsMidLine ? cursorLine : cursorLine - 1;
    const top = firstRowOfCommand(buffer, lastCommandRow, commandLineCount(command));
    this.addStart(blockId, 0, cursorLine - top, startsMidLine);
  }

  /** For blocks found again in a restored snapshot: `commandRow` is the row showing the command. */
  markStartAtRow(blockId: string, commandRow: number, command: string): void {
    const buffer = this.terminal.buffer.active;
    const cursorLine = buffer.baseY + buffer.cursorY;
    const lastCommandRow = lastRowOfLogicalLine(buffer, commandRow) + commandLineCount(command) - 1;
    // A marker cannot go below the cursor; a command on the cursor row starts "mid-line".
    const startRow = Math.min(lastCommandRow + 1, cursorLine);
    this.addStart(blockId, startRow - cursorLine, startRow - commandRow, startRow <= lastCommandRow);
  }

  /**
   * At the D mark (call from a write callback or parser hook). With `atPrompt` the cursor is
   * already on the next prompt (estimated ends), so its row is never part of the block.
   */
  markEndAtCursor(blockId: string, atPrompt = false): void {
    const entry = this.entries.get(blockId);
    if (!entry || entry.end) return;
    const marker = this.terminal.registerMarker(0);
    if (!marker) return;
    entry.end = marker;
    entry.endIncludesRow = !atPrompt && this.terminal.buffer.active.cursorX > 0;
    this.onChange();
  }

  /** For restored blocks: the last row of the block's output is `row`. */
  markEndAtRow(blockId: string, row: number): void {
    const entry = this.entries.get(blockId);
    if (!entry || entry.end) return;
    const buffer = this.terminal.buffer.active;
    const marker = this.terminal.registerMarker(Math.min(0, row - (buffer.baseY + buffer.cursorY)));
    if (!marker) return;
    entry.end = marker;
    entry.endIncludesRow = true;
    this.onChange();
  }

  lines(blockId: string): BlockLines | undefined {
    const entry = this.entries.get(blockId);
    if (!entry || entry.start.isDisposed) return undefined;
    const start = entry.start.line;
    const top = Math.max(0, start - entry.rowsAbove);
    const commandBottom = Math.max(top, entry.startsMidLine ? start : start - 1);
    let bottom: number;
    if (entry.end && !entry.end.isDisposed) {
      bottom = entry.endIncludesRow ? entry.end.line : entry.end.line - 1;
    } else {
      const buffer = this.terminal.buffer.active;
      bottom = buffer.type === 'normal' ? buffer.baseY + buffer.cursorY : start;
    }
    return { top, commandBottom, bottom: Math.max(commandBottom, bottom) };
  }

  forget(blockId: string): void {
    const entry = this.entries.get(blockId);
    if (!entry) return;
    entry.start.dispose();
    entry.end?.dispose();
    this.entries.delete(blockId);
  }

  forgetAll(): void {
    for (const blockId of [...this.entries.keys()]) this.forget(blockId);
  }

  private addStart(blockId: string, cursorOffset: number, rowsAbove: number, startsMidLine: boolean): void {
    if (this.has(blockId)) return;
    const marker = this.terminal.registerMarker(cursorOffset);
    if (!marker) return;
    marker.onDispose(() => {
      if (this.entries.get(blockId)?.start === marker) this.onChange();
    });
    this.entries.set(blockId, { start: marker, rowsAbove: Math.max(0, rowsAbove), startsMidLine, endIncludesRow: false });
    this.onChange();
  }
}

function commandLineCount(command: string): number {
  return Math.max(1, command.replace(/\n+$/, '').split('\n').length);
}

/** Walks up from the command's last row over soft-wrapped rows and over its extra lines. */
function firstRowOfCommand(buffer: IBuffer, lastRow: number, logicalLines: number): number {
  let row = Math.max(0, lastRow);
  for (let remaining = logicalLines; remaining > 0; remaining--) {
    while (row > 0 && buffer.getLine(row)?.isWrapped) row--;
    if (remaining > 1 && row > 0) row--;
  }
  return row;
}

function lastRowOfLogicalLine(buffer: IBuffer, row: number): number {
  let last = row;
  while (buffer.getLine(last + 1)?.isWrapped) last++;
  return last;
}

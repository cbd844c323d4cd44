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

  /** At the C mark: the cursor sits where the output begins. Call once xterm has parsed up to the mark. */
  markStartAtCursor(blockId: string, command: string): void {
    this.markStartAt(blockId, 0, this.terminal.buffer.active.cursorX, command);
  }

  /**
   * Where the cursor was at the C mark, `row` rows from the cursor's row now (0 is its row,
   * -1 the row above) and at `column`: the same as markStartAtCursor had it been called then.
   * Nothing is placed if that row has left the scrollback, nor on the alternate screen (its
   * rows are gone when the program leaves it). A block is placed once: a start whose row
   * was trimmed from the scrollback stays unplaced.
   */
  markStartAt(blockId: string, row: number, column: number, command: string): void {
    const buffer = this.terminal.buffer.active;
    const startLine = buffer.baseY + buffer.cursorY + Math.min(0, row);
    if (startLine < 0 || buffer.type !== 'normal' || this.entries.has(blockId)) return;
    const startsMidLine = column > 0;
    const lastCommandRow = startsMidLine ? startLine : startLine - 1;
    const top = firstRowOfCommand(buffer, lastCommandRow, commandLineCount(command));
    this.addStart(blockId, Math.min(0, row), startLine - top, startsMidLine);
  }

  /** At the D mark: the cursor sits just past the output. Call once xterm has parsed up to the mark. */
  markEndAtCursor(blockId: string): void {
    this.markEndAt(blockId, 0, this.terminal.buffer.active.cursorX);
  }

  /** Where the cursor was at the D mark, counted as in markStartAt. A block's end only follows its start. */
  markEndAt(blockId: string, row: number, column: number): void {
    const entry = this.entries.get(blockId);
    if (!entry || entry.end || entry.start.isDisposed) return;
    const buffer = this.terminal.buffer.active;
    if (buffer.baseY + buffer.cursorY + Math.min(0, row) < 0 || buffer.type !== 'normal') return;
    const marker = this.terminal.registerMarker(Math.min(0, row));
    if (!marker) return;
    entry.end = marker;
    // Output that ended with a line feed leaves the cursor at column 0 of the row after it.
    entry.endIncludesRow = column > 0;
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


import type { IBuffer, IDisposable, IMarker, Terminal } from '@xterm/xterm';

/** A block's rows in the buffer (absolute line numbers, inclusive). */
export interface BlockLines {
  /** First row of the command line as typed (after the prompt); the first row left when it is gone. */
  top: number;
  /** Last row of the command line; output starts below it. `top - 1` when the command line is gone (cleared, trimmed). */
  commandBottom: number;
  /** Last row of output (the cursor row while the command runs). */
  bottom: number;
}

interface BlockEntry {
  /**
   * First row of the command line. It begins a logical line (the prompt's), so xterm keeps
   * the marker on it when a width change re-wraps the command over more or fewer rows.
   */
  top: IMarker;
  /** Row where output began (cursor row at the C mark); also the first row of a logical line unless `startsMidLine`. */
  start: IMarker;
  /** Whether output starts on the command's own last row (cursor was not at column 0). */
  startsMidLine: boolean;
  /**
   * The command cleared the screen its line was on: the block is what it printed after that,
   * without a command line, from the row below `above` (the last row above the cleared
   * screen; the buffer's first row when there is none). Rows on an erased screen lose their
   * markers, the rows above it keep theirs.
   */
  cleared?: { above: IMarker | undefined };
  end?: IMarker;
  endIncludesRow: boolean;
}

/**
 * xterm markers for block edges. Markers move with the buffer as it scrolls, trims and
 * re-wraps, and are disposed when their line leaves the scrollback. A block whose start left
 * the scrollback but whose end (or, while it runs, the cursor) is still there covers the rows
 * from the top of the buffer; a block whose end left too has no position.
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
    const cursorLine = buffer.baseY + buffer.cursorY;
    this.addStart(blockId, Math.min(0, row), top - cursorLine, startsMidLine);
  }

  /**
   * Watches for the screen being cleared (`clear`: ED 2, or ED 0 from the home position),
   * which erases its rows in place: see screenCleared. Dispose to stop.
   */
  watchScreenClears(): IDisposable {
    return this.terminal.parser.registerCsiHandler({ final: 'J' }, (params) => {
      const buffer = this.terminal.buffer.active;
      const mode = typeof params[0] === 'number' ? params[0] : 0;
      if (mode === 2 || (mode === 0 && buffer.cursorX === 0 && buffer.cursorY === 0)) this.screenCleared();
      // Observe only: xterm still erases.
      return false;
    });
  }

  /**
   * A block listed in a snapshot as having cleared the screen: it begins at `row` (counted as
   * in markStartAt), at the top of what it printed after the clear, without a command line.
   */
  markClearedStartAt(blockId: string, row: number): void {
    const buffer = this.terminal.buffer.active;
    const offset = Math.min(0, row);
    const line = buffer.baseY + buffer.cursorY + offset;
    if (line < 0 || buffer.type !== 'normal' || this.entries.has(blockId)) return;
    const start = this.terminal.registerMarker(offset);
    if (!start) return;
    const above = line > 0 ? this.terminal.registerMarker(offset - 1) : undefined;
    this.entries.set(blockId, { top: start, start, startsMidLine: false, cleared: { above }, endIncludesRow: false });
    this.onChange();
  }

  /** At the D mark: the cursor sits just past the output. Call once xterm has parsed up to the mark. */
  markEndAtCursor(blockId: string): void {
    this.markEndAt(blockId, 0, this.terminal.buffer.active.cursorX);
  }

  /** Where the cursor was at the D mark, counted as in markStartAt. A block's end only follows its start. */
  markEndAt(blockId: string, row: number, column: number): void {
    const entry = this.entries.get(blockId);
    // A start trimmed from the scrollback still has an end: the block covers the rows left.
    if (!entry || entry.end) return;
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
    if (!entry || entry.end?.isDisposed) return undefined;
    let bottom: number;
    if (entry.end) {
      bottom = entry.endIncludesRow ? entry.end.line : entry.end.line - 1;
    } else {
      const buffer = this.terminal.buffer.active;
      bottom = buffer.type === 'normal' ? buffer.baseY + buffer.cursorY : entry.start.line;
    }
    if (entry.cleared) {
      const above = entry.cleared.above;
      const top = above && !above.isDisposed ? above.line + 1 : 0;
      return { top, commandBottom: top - 1, bottom: Math.max(top, bottom) };
    }
    if (entry.start.isDisposed) {
      if (!entry.end && !this.isRunning(blockId)) return undefined;
      return { top: 0, commandBottom: -1, bottom: Math.max(0, bottom) };
    }
    const start = entry.start.line;
    const top = entry.top.isDisposed ? 0 : Math.min(entry.top.line, start);
    const commandBottom = Math.max(top, entry.startsMidLine ? start : start - 1);
    return { top, commandBottom, bottom: Math.max(commandBottom, bottom) };
  }

  forget(blockId: string): void {
    const entry = this.entries.get(blockId);
    if (!entry) return;
    entry.top.dispose();
    entry.start.dispose();
    entry.cleared?.above?.dispose();
    entry.end?.dispose();
    this.entries.delete(blockId);
  }

  forgetAll(): void {
    for (const blockId of [...this.entries.keys()]) this.forget(blockId);
  }

  /** The newest block, while it has no end: the one a clear on screen now belongs to. */
  private isRunning(blockId: string): boolean {
    const newest = [...this.entries.keys()].at(-1);
    return newest === blockId && this.entries.get(blockId)?.end === undefined;
  }

  /**
   * The screen is about to be erased in place (xterm does not push it into the scrollback,
   * and drops the markers on its rows). A block that lay wholly on it loses its position with
   * them; one that began above it now ends above it; the running one, unless its command
   * line is above the screen, becomes what it prints from the top of the screen on.
   */
  private screenCleared(): void {
    const buffer = this.terminal.buffer.active;
    if (buffer.type !== 'normal') return;
    const screenTop = buffer.baseY;
    const rowAboveScreen = () => (screenTop > 0 ? this.terminal.registerMarker(-buffer.cursorY - 1) : undefined);
    const newest = [...this.entries.keys()].at(-1);
    for (const [blockId, entry] of this.entries) {
      const lines = this.lines(blockId);
      if (!lines || lines.bottom < screenTop) continue;
      if (!entry.end) {
        if (blockId !== newest || lines.top < screenTop) continue;
        entry.cleared?.above?.dispose();
        entry.cleared = { above: rowAboveScreen() };
      } else if (lines.top < screenTop) {
        const end = rowAboveScreen();
        if (!end) continue;
        entry.end.dispose();
        entry.end = end;
        entry.endIncludesRow = true;
      }
    }
    this.onChange();
  }

  private addStart(blockId: string, cursorOffset: number, topOffset: number, startsMidLine: boolean): void {
    const start = this.terminal.registerMarker(cursorOffset);
    const top = this.terminal.registerMarker(Math.min(topOffset, cursorOffset));
    if (!start || !top) {
      start?.dispose();
      top?.dispose();
      return;
    }
    start.onDispose(() => {
      if (this.entries.get(blockId)?.start === start) this.onChange();
    });
    this.entries.set(blockId, { top, start, startsMidLine, endIncludesRow: false });
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


import type { SnapshotBlock } from '../../../shared/protocol';
import type { PrintedCount } from '../printedTally';
import type { TerminalMirror } from './terminalMirror';

type Mark = ReturnType<TerminalMirror['markCursorLine']>;

/** Block output handed out at once is capped; the rest stays addressable in the mirror. */
export const MAX_OUTPUT_CHARS = 4 * 1024 * 1024;

export interface BlockOutput {
  text: string;
  /** The start scrolled out of the scrollback, or the text was longer than the cap (the tail is kept). */
  truncated: boolean;
  lineCount: number;
  /** What the block printed in all, counted as it streamed: more than `text` holds when its start scrolled out. */
  printed?: PrintedCount;
}

/**
 * Where each block's output lies in the mirror: a marker where the command started and one
 * where it ended. xterm moves markers as the scrollback trims and disposes them when their
 * line is dropped, so a block's text can be read back cleanly for as long as it exists.
 */
export class BlockOutputs {
  private readonly starts = new Map<string, Mark>();
  private readonly ends = new Map<string, Mark>();
  /**
   * Blocks that cleared the screen their output began on: their output is what they printed
   * after the clear, from the row below this mark (the last row above the cleared screen;
   * the buffer's first row when there was none, or it went with the scrollback).
   */
  private readonly clearedBelow = new Map<string, Mark>();

  constructor(private readonly mirror: TerminalMirror) {
    mirror.onScreenCleared(() => this.screenCleared());
  }

  /** The block's output starts where the mirror's cursor is once everything written so far is parsed. */
  startAtCursor(blockId: string): void {
    this.mirror.afterPendingWrites(() => this.starts.set(blockId, this.mirror.markCursorLine()));
    this.forgetVanished();
  }

  /** The block's output starts at a mark placed earlier (prompt heuristics read it off the screen). */
  startAtMark(blockId: string, mark: Mark): void {
    this.starts.set(blockId, mark);
    this.forgetVanished();
  }

  endAtCursor(blockId: string): void {
    this.mirror.afterPendingWrites(() => this.ends.set(blockId, this.mirror.markCursorLine()));
  }

  /** Clean text of a block; a running block reads up to the cursor. Undefined for unknown blocks. */
  async read(blockId: string): Promise<BlockOutput | undefined> {
    await this.mirror.flushed();
    if (!this.starts.has(blockId)) return undefined;
    const start = this.starts.get(blockId);
    const end = this.ends.get(blockId);
    const cleared = this.clearedFrom(blockId);
    if ((!start && !cleared) || end?.marker.isDisposed) return { text: '', truncated: true, lineCount: 0 };
    const startGone = cleared ? cleared.maybeTrimmed : start!.marker.isDisposed;
    const startLine = cleared ? cleared.line : startGone ? 0 : start!.marker.line;
    const endLine = end ? end.marker.line : Number.MAX_SAFE_INTEGER;
    const endColumn = end ? end.column : this.mirror.cursorColumn;
    let text = this.mirror.textBetween(startLine, endLine, endColumn).replace(/\s+$/, '');
    const truncated = startGone || text.length > MAX_OUTPUT_CHARS;
    if (text.length > MAX_OUTPUT_CHARS) text = text.slice(text.length - MAX_OUTPUT_CHARS);
    return { text, truncated, lineCount: text === '' ? 0 : text.split('\n').length };
  }

  /**
   * Where each block's edges lie in a snapshot of rows `first` onwards whose cursor ends on
   * row `cursor`: rows counted from the cursor's row. Blocks that began above `first` are left out.
   */
  positions(rows: { first: number; cursor: number }): SnapshotBlock[] {
    const edge = (mark: Mark) => (mark && !mark.marker.isDisposed ? { row: mark.marker.line - rows.cursor, column: mark.column } : undefined);
    const positions: SnapshotBlock[] = [];
    for (const [blockId, startMark] of this.starts) {
      const cleared = this.clearedFrom(blockId);
      const start = cleared ? { row: cleared.line - rows.cursor, column: 0 } : edge(startMark);
      if (!start || rows.cursor + start.row < rows.first) continue;
      const end = this.ends.has(blockId) ? edge(this.ends.get(blockId)) : undefined;
      const listed: SnapshotBlock = end ? { blockId, start, end } : { blockId, start };
      positions.push(cleared ? { ...listed, cleared: true } : listed);
    }
    return positions;
  }

  /** Where a block that cleared the screen begins now, and whether rows above that may have been trimmed. */
  private clearedFrom(blockId: string): { line: number; maybeTrimmed: boolean } | undefined {
    if (!this.clearedBelow.has(blockId)) return undefined;
    const above = this.clearedBelow.get(blockId);
    if (above && !above.marker.isDisposed) return { line: above.marker.line + 1, maybeTrimmed: false };
    return { line: 0, maybeTrimmed: this.mirror.trimming };
  }

  /**
   * The screen is about to be erased in place. The running block, if its output began on
   * the screen, is from now on what it prints after the clear; a finished block that began
   * above the screen now ends above it (its rows on the screen are gone).
   */
  private screenCleared(): void {
    const screenTop = this.mirror.screenTop;
    const rowAbove = () => (screenTop > 0 ? this.mirror.markRow(screenTop - 1) : undefined);
    const running = [...this.starts.keys()].filter((blockId) => !this.ends.has(blockId)).at(-1);
    for (const [blockId, start] of this.starts) {
      const end = this.ends.get(blockId);
      const startLine = this.clearedFrom(blockId)?.line ?? (start && !start.marker.isDisposed ? start.marker.line : -1);
      if (blockId === running && startLine >= screenTop) {
        this.clearedBelow.get(blockId)?.marker.dispose();
        this.clearedBelow.set(blockId, rowAbove());
      } else if (end && !end.marker.isDisposed && end.marker.line >= screenTop && startLine >= 0 && startLine < screenTop) {
        const above = rowAbove();
        if (!above) continue;
        end.marker.dispose();
        this.ends.set(blockId, { marker: above.marker, column: this.mirror.cols });
      }
    }
  }

  /** Drop the oldest blocks whose output has left the scrollback entirely. */
  private forgetVanished(): void {
    for (const [id, start] of this.starts) {
      const end = this.ends.get(id);
      const gone = (!start || start.marker.isDisposed) && (end === undefined ? false : !end || end.marker.isDisposed);
      if (!gone) break;
      this.starts.delete(id);
      this.ends.delete(id);
      this.clearedBelow.delete(id);
    }
  }
}

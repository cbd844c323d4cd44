import headless from '@xterm/headless';
import serialize from '@xterm/addon-serialize';
import unicode11 from '@xterm/addon-unicode11';
import type { IMarker, Terminal as HeadlessTerminal } from '@xterm/headless';
import { terminalStateSequences } from './terminalStateSequences';
import { PendingSequence } from './pendingSequence';
import { activeScrollRegion, parserInGround } from './xtermInternals';

const { Terminal } = headless;
const { SerializeAddon } = serialize;
const { Unicode11Addon } = unicode11;

/**
 * A headless xterm that parses exactly the bytes the visible terminal gets, so the engine
 * can answer "what did block N print" as clean text (no ANSI, wide chars and soft wraps
 * handled by xterm itself) and serialize the screen and scrollback for restore.
 */
export class TerminalMirror {
  private readonly terminal: HeadlessTerminal;
  private readonly serializer = new SerializeAddon();
  private readonly recent = new PendingSequence();

  constructor(cols: number, rows: number, scrollback: number) {
    // logLevel off: binary garbage makes xterm log every parse error to the console.
    this.terminal = new Terminal({ cols, rows, scrollback, allowProposedApi: true, logLevel: 'off' });
    this.terminal.loadAddon(this.serializer as never);
    // Same character widths as the renderer (which uses Unicode 11), so columns and wraps agree.
    this.terminal.loadAddon(new Unicode11Addon() as never);
    this.terminal.unicode.activeVersion = '11';
  }

  private writesInFlight = 0;

  write(data: Uint8Array | string): void {
    this.writesInFlight++;
    this.terminal.write(data, () => {
      this.writesInFlight--;
      // Once parsed: a snapshot taken now must not see bytes written after it was asked for.
      this.recent.add(data);
    });
  }

  /** Everything written has been parsed. */
  get idle(): boolean {
    return this.writesInFlight === 0;
  }

  get cols(): number {
    return this.terminal.cols;
  }

  get rows(): number {
    return this.terminal.rows;
  }

  /** Rows the normal buffer holds at most: the screen and the scrollback. */
  get keptRows(): number {
    return this.terminal.rows + (this.terminal.options.scrollback ?? 0);
  }

  /**
   * Plain text printed now goes down the screen and into the scrollback in the ordinary way:
   * normal screen, autowrap on, insert and origin modes off, no scroll region.
   */
  get plainScreen(): boolean {
    const { modes } = this.terminal;
    if (this.isAlternateScreen || !modes.wraparoundMode || modes.insertMode || modes.originMode) return false;
    // xterm has no public API for the scroll region; without it, assume there is one.
    const region = activeScrollRegion(this.terminal);
    return region?.top === 0 && region.bottom === this.terminal.rows - 1;
  }

  /** Runs `callback` once everything written so far has been parsed. */
  afterPendingWrites(callback: () => void): void {
    this.terminal.write('', callback);
  }

  /** Wait until everything written so far is parsed. */
  flushed(): Promise<void> {
    return new Promise((resolve) => this.afterPendingWrites(resolve));
  }

  /** The program asked for bracketed paste (shells with a line editor do at the prompt). */
  get bracketedPasteMode(): boolean {
    return this.terminal.modes.bracketedPasteMode;
  }

  get isAlternateScreen(): boolean {
    return this.terminal.buffer.active.type === 'alternate';
  }

  resize(cols: number, rows: number): void {
    this.terminal.resize(cols, rows);
  }

  /**
   * Calls `listener` just before the screen is erased in place (ED 2, or ED 0 from the home
   * position: `clear`). xterm keeps nothing of it and drops the markers on its rows.
   */
  onScreenCleared(listener: () => void): void {
    this.terminal.parser.registerCsiHandler({ final: 'J' }, (params) => {
      const buffer = this.terminal.buffer.active;
      const mode = typeof params[0] === 'number' ? params[0] : 0;
      if (buffer.type === 'normal' && (mode === 2 || (mode === 0 && buffer.cursorX === 0 && buffer.cursorY === 0))) listener();
      // Observe only: xterm still erases.
      return false;
    });
  }

  /** The first row of the screen, as a row of the normal buffer. */
  get screenTop(): number {
    return this.terminal.buffer.normal.baseY;
  }

  /** True once the buffer is full, so rows may already have been trimmed from its top. */
  get trimming(): boolean {
    return this.terminal.buffer.normal.length >= this.keptRows;
  }

  /** A marker on the cursor's line in the normal buffer; undefined while the alternate screen is up. */
  markCursorLine(): { marker: IMarker; column: number } | undefined {
    if (this.isAlternateScreen) return undefined;
    const marker = this.terminal.registerMarker(0);
    return marker ? { marker, column: this.terminal.buffer.normal.cursorX } : undefined;
  }

  get cursorColumn(): number {
    return this.terminal.buffer.normal.cursorX;
  }

  /**
   * Clean text between two markers of the normal buffer: from the start line up to (not
   * including) the end line, plus the end line's first `endColumn` cells when output did
   * not finish with a newline. Soft-wrapped rows are joined back into one line.
   */
  textBetween(startLine: number, endLine: number, endColumn: number): string {
    const buffer = this.terminal.buffer.normal;
    const lines: string[] = [];
    const last = Math.min(endLine, buffer.length - 1);
    for (let y = Math.max(0, startLine); y <= last; y++) {
      const line = buffer.getLine(y);
      if (!line) continue;
      let text: string;
      if (y === endLine) {
        if (endColumn <= 0) break;
        text = line.translateToString(true, 0, endColumn);
      } else {
        text = line.translateToString(true);
      }
      if (line.isWrapped && lines.length > 0) lines[lines.length - 1] += text;
      else lines.push(text);
    }
    return lines.join('\n');
  }

  /** The visible screen as text (normal or alternate buffer, whichever is active). */
  screenText(): string {
    const buffer = this.terminal.buffer.active;
    const lines: string[] = [];
    for (let y = buffer.viewportY; y < buffer.viewportY + this.terminal.rows; y++) {
      lines.push(buffer.getLine(y)?.translateToString(true) ?? '');
    }
    return lines.join('\n').replace(/\n+$/, '');
  }

  /** The line the cursor is on, as text (used by the prompt heuristics). */
  cursorLineText(): string {
    const buffer = this.terminal.buffer.active;
    return buffer.getLine(buffer.baseY + buffer.cursorY)?.translateToString(true) ?? '';
  }

  /** The whole logical line (soft-wrapped rows joined) that buffer row `y` belongs to, and its last row. */
  logicalLineAt(y: number): { text: string; lastRow: number } {
    const buffer = this.terminal.buffer.normal;
    let first = y;
    while (first > 0 && buffer.getLine(first)?.isWrapped) first--;
    let text = '';
    let lastRow = first;
    for (let row = first; row < buffer.length; row++) {
      const line = buffer.getLine(row);
      if (!line || (row > first && !line.isWrapped)) break;
      lastRow = row;
      text += line.translateToString(!buffer.getLine(row + 1)?.isWrapped);
    }
    return { text, lastRow };
  }

  /** A marker on buffer row `row` of the normal buffer (rows count from the top of the scrollback). */
  markRow(row: number): { marker: IMarker; column: number } | undefined {
    if (this.isAlternateScreen) return undefined;
    const buffer = this.terminal.buffer.normal;
    const marker = this.terminal.registerMarker(row - (buffer.baseY + buffer.cursorY));
    return marker ? { marker, column: 0 } : undefined;
  }

  /**
   * The normal screen and scrollback as escape sequences that recreate them when written to
   * a terminal: what a restored session shows (its programs are gone, so nothing else is).
   */
  serialize(scrollback?: number): string {
    return this.serializer.serialize({ scrollback, excludeAltBuffer: true, excludeModes: true });
  }

  /**
   * Everything a new terminal needs to continue where this one is, for a client re-attaching
   * to the running programs: `screen` is serialize()'s normal screen and scrollback (where
   * the blocks lie), `state` what goes after it: the alternate screen a program has up, the
   * cursor, scroll regions, modes and charsets (terminalStateSequences), and last an escape
   * sequence the snapshot cuts in two (PendingSequence). Call once everything written is parsed.
   */
  reattachSnapshot(): { screen: string; state: string } {
    const state = terminalStateSequences(this.terminal) + this.recent.text(parserInGround(this.terminal));
    return { screen: this.serialize(), state };
  }

  /** Where serialize(scrollback) begins and leaves the cursor, as rows of the normal buffer. */
  serializedRows(scrollback?: number): { first: number; cursor: number } {
    const buffer = this.terminal.buffer.normal;
    const kept = scrollback === undefined ? buffer.length : Math.min(buffer.length, scrollback + this.terminal.rows);
    return { first: buffer.length - kept, cursor: buffer.baseY + buffer.cursorY };
  }

  dispose(): void {
    this.terminal.dispose();
  }
}

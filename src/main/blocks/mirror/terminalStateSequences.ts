import type { IBuffer, Terminal as HeadlessTerminal } from '@xterm/headless';
import { screenRedraw } from './screenRedraw';
import { sgrSequence } from './sgrSequence';
import { readInternals, type BufferInternals, type Charset, type CoreInternals } from './xtermInternals';

const MOUSE_PROTOCOLS: Record<string, string> = { X10: '9', VT200: '1000', DRAG: '1002', ANY: '1003' };
const MOUSE_ENCODINGS: Record<string, string> = { SGR: '1006', SGR_PIXELS: '1016' };
const CURSOR_STYLES = { block: 1, underline: 3, bar: 5 } as const;
/** Designate into G0–G3, and shift each into GL (SI, SO, LS2, LS3). */
const DESIGNATE = ['(', ')', '*', '+'];
const SHIFT_IN = ['\x0f', '\x0e', '\x1bn', '\x1bo'];

/**
 * What a fresh terminal needs, after the normal screen and scrollback (the serialize addon's
 * output), to be in the state `terminal` is in: the normal screen drawn again exactly
 * (screenRedraw), the alternate screen if a program has it up, both screens' scroll regions
 * and saved cursors, the cursor (position, a pending wrap, visibility, DECSCUSR shape), the
 * modes a program sets (DECCKM, keypad, bracketed paste, insert, origin, autowrap, reverse
 * wrap, focus events, LNM, mouse tracking and its encoding) and the G0–G3 charsets.
 *
 * The order matters: the screens are drawn while printing is plain; DECSTBM and DECOM move
 * the cursor, so they come before it is placed; a pending wrap is recreated by printing the
 * last cell again, before insert mode, autowrap off or a line-drawing charset could change
 * what that does.
 */
export function terminalStateSequences(terminal: HeadlessTerminal): string {
  const internals = readInternals(terminal);
  const onAlternate = terminal.buffer.active.type === 'alternate';
  const active = onAlternate ? internals.alternate : internals.normal;
  const { cols, rows } = terminal;
  let out = screenRedraw(terminal.buffer.normal, cols, rows);
  if (onAlternate) {
    // CSI ?1049h saves the cursor the program gets back when it leaves (the shell's place).
    out += scrollRegion(internals.normal, rows) + savedCursor(terminal.buffer.normal, internals.normal, cols, '\x1b[?1049h\x1b(B\x0f');
    out += screenRedraw(terminal.buffer.alternate, cols, rows);
  } else if (hasSavedCursor(internals.alternate)) {
    // The alternate screen keeps what DECSC saved there while the normal one is up: a program
    // that comes back with CSI ?1049h and restores (CSI ?1048l) gets it. CSI ?1047h/l switch
    // without saving or restoring anything; the cursor is placed below.
    out += '\x1b[?1047h' + savedCursor(terminal.buffer.alternate, internals.alternate, cols, '\x1b7', true) + '\x1b[?1047l';
  }
  out += savedCursor(terminal.buffer.active, active, cols, '\x1b7');
  if (internals.currentStyle) out += sgrSequence(internals.currentStyle);
  out += scrollRegion(active, terminal.rows);
  if (terminal.modes.originMode) out += '\x1b[?6h';
  // With DECOM on, CUP counts from the top of the scroll region.
  const originRow = terminal.modes.originMode ? (active?.scrollTop ?? 0) : 0;
  const { cursorX, cursorY } = terminal.buffer.active;
  out += cursorTo(terminal.buffer.active, cursorY, cursorX, cols, originRow);
  if (cursorX >= cols && internals.currentStyle) out += sgrSequence(internals.currentStyle);
  out += modeSequences(terminal, internals);
  out += charsetSequences(internals);
  return out;
}

/** DECSTBM for a region other than the whole screen (it also moves the cursor home). */
function scrollRegion(buffer: BufferInternals | undefined, rows: number): string {
  if (!buffer || (buffer.scrollTop === 0 && buffer.scrollBottom === rows - 1)) return '';
  return `\x1b[${buffer.scrollTop + 1};${buffer.scrollBottom + 1}r`;
}

/**
 * Where DECSC saved the cursor, with the attributes and charset it saved: set up, then saved
 * by `save` (ESC 7, or CSI ?1049h). Leaves G0 designated as the saved charset:
 * charsetSequences designates all four afterwards.
 */
function savedCursor(buffer: IBuffer, internals: BufferInternals | undefined, cols: number, save: string, onClearedScreen = false): string {
  if (!internals) return '';
  // A screen cleared when it comes up again (the alternate one, saved from while the normal one is up) takes any last cell.
  const place = onClearedScreen && internals.savedX >= cols ? `\x1b[${screenRow(internals.savedY, internals) + 1};${cols}H ` : cursorTo(buffer, screenRow(internals.savedY, internals), internals.savedX, cols, 0);
  const style = internals.savedStyle ? sgrSequence(internals.savedStyle) : '\x1b[0m';
  const charset = `\x1b(${designatorOf(internals.savedCharset) ?? 'B'}\x0f`;
  return place + style + charset + save;
}

/** DECSC saved something in this buffer (a fresh buffer's saved cursor is the top left, plain, US ASCII). */
function hasSavedCursor(buffer: BufferInternals | undefined): buffer is BufferInternals {
  return buffer !== undefined && (buffer.savedX !== 0 || buffer.savedY !== 0 || buffer.savedStyle !== undefined || buffer.savedCharset !== undefined);
}

/** A row counted from the top of the buffer, as a row of the screen (as DECRC clamps it). */
function screenRow(bufferRow: number, buffer: BufferInternals): number {
  return Math.max(0, bufferRow - buffer.ybase);
}

/**
 * The cursor to a row and column of the screen (CUP's row less `rowOffset`). At a pending
 * wrap (column = cols: the last column printed, the cursor waiting past it) the last cell is
 * printed again with its own attributes, the only way to get a terminal into that state; the
 * attributes are then that cell's.
 */
function cursorTo(buffer: IBuffer, row: number, column: number, cols: number, rowOffset: number): string {
  const cup = (x: number) => `\x1b[${row - rowOffset + 1};${x + 1}H`;
  if (column < cols) return cup(column);
  const reprint = lastCellOf(buffer, row, cols);
  return reprint ? cup(reprint.column) + reprint.sequence : cup(cols - 1);
}

/** The last cell of a screen row (a wide character's first half if it ends there), as SGR and text. */
function lastCellOf(buffer: IBuffer, row: number, cols: number): { column: number; sequence: string } | undefined {
  const line = buffer.getLine(buffer.baseY + row);
  let column = cols - 1;
  let cell = line?.getCell(column);
  if (cell && cell.getWidth() === 0 && column > 0) cell = line?.getCell(--column);
  const chars = cell?.getChars();
  if (!cell || !chars) return undefined;
  return { column, sequence: sgrSequence(cell) + chars };
}

function modeSequences(terminal: HeadlessTerminal, internals: CoreInternals): string {
  const { modes } = terminal;
  const set: string[] = [];
  if (modes.applicationCursorKeysMode) set.push('?1');
  if (modes.applicationKeypadMode) set.push('?66');
  if (modes.bracketedPasteMode) set.push('?2004');
  if (modes.insertMode) set.push('4');
  if (modes.reverseWraparoundMode) set.push('?45');
  if (modes.sendFocusMode) set.push('?1004');
  if (terminal.options.convertEol) set.push('20');
  const protocol = internals.mouseProtocol && MOUSE_PROTOCOLS[internals.mouseProtocol];
  if (protocol) set.push(`?${protocol}`);
  const encoding = internals.mouseEncoding && MOUSE_ENCODINGS[internals.mouseEncoding];
  if (encoding) set.push(`?${encoding}`);
  let out = set.map((mode) => `\x1b[${mode}h`).join('');
  if (!modes.wraparoundMode) out += '\x1b[?7l';
  if (internals.cursorHidden) out += '\x1b[?25l';
  if (internals.cursorStyle) out += `\x1b[${CURSOR_STYLES[internals.cursorStyle] + (internals.cursorBlink ? 0 : 1)} q`;
  return out;
}

/** G0–G3 (US ASCII where not known), and the one shifted into GL. */
function charsetSequences(internals: CoreInternals): string {
  let out = '';
  for (let index = 0; index < DESIGNATE.length; index++) {
    out += `\x1b${DESIGNATE[index]}${designatorOf(internals.charsets?.[index]) ?? 'B'}`;
  }
  return out + (SHIFT_IN[internals.glevel ?? 0] ?? '');
}

/**
 * The final character that designates a charset, recognised by what it maps: US ASCII (no
 * map), DEC Special Graphics (line drawing, what full-screen programs use) and UK. Other
 * national charsets are left as US ASCII.
 */
function designatorOf(charset: Charset): string | undefined {
  if (charset === undefined) return 'B';
  if (charset['`'] === '\u25c6' && charset['q'] === '\u2500') return '0';
  const keys = Object.keys(charset);
  if (keys.length === 1 && charset['#'] === '\u00a3') return 'A';
  return undefined;
}

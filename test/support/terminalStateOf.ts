import type { IBuffer, IBufferCell, Terminal as HeadlessTerminal } from '@xterm/headless';
import { TerminalMirror } from '../../src/main/blocks/mirror/terminalMirror';
import { sgrSequence } from '../../src/main/blocks/mirror/sgrSequence';
import { readInternals, type BufferInternals } from '../../src/main/blocks/mirror/xtermInternals';

/** The headless xterm inside a mirror (tests compare what its public surface does not show). */
export function headlessOf(mirror: TerminalMirror): HeadlessTerminal {
  return (mirror as unknown as { terminal: HeadlessTerminal }).terminal;
}

/**
 * Everything about a terminal that decides what it shows and what the next bytes and keys
 * do: the cells (text, width, colours, attributes) of the normal buffer (scrollback too)
 * and of the alternate screen when it is up, the cursor, scroll regions, saved cursors,
 * modes, mouse protocol and encoding, cursor shape, charsets and the current SGR.
 */
export function terminalStateOf(terminal: HeadlessTerminal): Record<string, unknown> {
  const internals = readInternals(terminal);
  const onAlternate = terminal.buffer.active.type === 'alternate';
  const active = onAlternate ? internals.alternate : internals.normal;
  const charsetName = (charset: Record<string, string> | undefined) => (charset === undefined ? 'B' : (charset['`'] ?? '') + (charset['#'] ?? '') + Object.keys(charset).length);
  const core = (terminal as unknown as { _core: { _charsetService: { charset?: Record<string, string> } } })._core;
  return {
    active: terminal.buffer.active.type,
    normal: cellsOf(terminal.buffer.normal, terminal.cols),
    alternate: onAlternate ? cellsOf(terminal.buffer.alternate, terminal.cols) : undefined,
    cursor: { x: terminal.buffer.active.cursorX, y: terminal.buffer.active.cursorY },
    region: active && { top: active.scrollTop, bottom: active.scrollBottom },
    normalRegion: internals.normal && { top: internals.normal.scrollTop, bottom: internals.normal.scrollBottom },
    saved: savedOf(active),
    normalSaved: onAlternate ? savedOf(internals.normal) : undefined,
    alternateSaved: onAlternate ? undefined : internals.alternate && { ...savedOf(internals.alternate), charset: charsetName(internals.alternate.savedCharset) },
    modes: { ...terminal.modes, convertEol: terminal.options.convertEol ?? false },
    mouse: [internals.mouseProtocol, internals.mouseEncoding],
    cursorLook: [internals.cursorHidden, internals.cursorStyle, internals.cursorBlink],
    charsets: [0, 1, 2, 3].map((index) => charsetName(internals.charsets?.[index])),
    glevel: internals.glevel,
    inUse: charsetName(core._charsetService.charset),
    style: internals.currentStyle && sgrSequence(internals.currentStyle),
  };
}

/**
 * What a blank cell shows: its background (its foreground when inverse). xterm gives the
 * blank it leaves of an overwritten wide character all the current attributes; they show
 * nothing there, and no sequence but that overwrite reproduces them.
 */
function blankLook(cell: IBufferCell): string {
  const inverse = cell.isInverse() !== 0;
  const bg = cell.isBgRGB() ? `rgb${cell.getBgColor()}` : cell.isBgPalette() ? `p${cell.getBgColor()}` : 'default';
  const fg = cell.isFgRGB() ? `rgb${cell.getFgColor()}` : cell.isFgPalette() ? `p${cell.getFgColor()}` : 'default';
  return `blank:${bg}${inverse ? `:inverse:${fg}` : ''}`;
}

function savedOf(buffer: BufferInternals | undefined): { x: number; row: number } | undefined {
  return buffer && { x: buffer.savedX, row: Math.max(0, buffer.savedY - buffer.ybase) };
}

function cellsOf(buffer: IBuffer, cols: number): string[] {
  const rows: string[] = [];
  for (let y = 0; y < buffer.length; y++) {
    const line = buffer.getLine(y);
    if (!line) continue;
    // The first row marked as continuing a row above it that is not there (scrolled away by
    // CSI S) cannot be written so; nothing joins it to anything anyway.
    const joined = line.isWrapped && y > 0;
    let row = joined ? '↩' : '';
    let style = '';
    for (let x = 0; x < cols; x++) {
      const cell = line.getCell(x);
      if (!cell) continue;
      const cellStyle = cell.getChars() ? sgrSequence(cell) : blankLook(cell);
      if (cellStyle !== style) row += `{${cellStyle.replace('\x1b', '')}}`;
      style = cellStyle;
      row += cell.getChars() || '·';
      // The cell a wide character covers (xterm leaves a plain blank there when a wide
      // character did not fit with autowrap off: it looks the same).
      if (cell.getWidth() === 2) x++;
    }
    rows.push(row);
  }
  return rows;
}

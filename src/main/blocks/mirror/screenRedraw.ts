import type { IBuffer, IBufferLine } from '@xterm/headless';
import { sgrSequence } from './sgrSequence';

/**
 * Escape sequences that draw the screen rows of `buffer` exactly as they are, cell by cell:
 * text, wide characters, colours and attributes, and blank cells with their background
 * (erased with ECH, so they stay blank; an inverse one as xterm leaves it). A row that continues the one above as a soft wrap
 * is reached by printing on from that row's last column, so it is marked wrapped again.
 * The last row's wide character pushed on goes past the screen: drawn on the next row only.
 *
 * The serialize addon draws the screen too, but drops blank rows at its bottom, and with
 * them a background a program painted there (a colour scheme's empty lines).
 *
 * Expects a terminal of the same size in its default state for printing: autowrap on,
 * insert mode off, US ASCII in GL. Leaves the cursor anywhere and the attributes set.
 */
export function screenRedraw(buffer: IBuffer, cols: number, rows: number): string {
  let out = '';
  let style = '';
  let pendingWrap = false;
  for (let y = 0; y < rows; y++) {
    const line = buffer.getLine(buffer.baseY + y);
    if (!line) continue;
    if (!(pendingWrap && line.isWrapped)) out += `\x1b[${y + 1};1H`;
    pendingWrap = false;
    const wideNext = widePushedOn(buffer.getLine(buffer.baseY + y + 1));
    for (let x = 0; x < cols; ) {
      const cell = line.getCell(x);
      if (!cell) break;
      const cellStyle = sgrSequence(cell);
      if (cellStyle !== style) out += cellStyle;
      style = cellStyle;
      const chars = cell.getChars();
      const width = Math.max(1, cell.getWidth());
      if (chars) {
        out += chars;
        x += width;
        pendingWrap = x >= cols;
        continue;
      }
      if (cell.isInverse() && x < cols - 1) {
        // An inverse blank shows its foreground. ECH blanks in the background colour only;
        // xterm's own way to leave one (overwriting half of a wide character) does it.
        const cup = (column: number) => `\x1b[${y + 1};${column + 1}H`;
        out += `${cup(x)}\u65e5${cup(x + 1)} ${cup(x + 1)}`;
        x++;
        continue;
      }
      if (x === cols - 1 && wideNext) {
        // A wide character that did not fit left this cell blank in its own attributes:
        // printing it again from here does the same.
        pendingWrap = true;
        break;
      }
      let blanks = blankRun(line, x, cols, cellStyle);
      if (wideNext && x + blanks === cols) blanks--;
      out += `\x1b[${blanks}X`;
      x += blanks;
      if (x < cols) out += `\x1b[${blanks}C`;
    }
  }
  return out;
}

/** The row continues the one above with a wide character (which did not fit at its end). */
function widePushedOn(next: IBufferLine | undefined): boolean {
  return next !== undefined && next.isWrapped && next.getCell(0)?.getWidth() === 2;
}

/** How many blank cells of the same style start at column `from`. */
function blankRun(line: IBufferLine, from: number, cols: number, style: string): number {
  let x = from + 1;
  while (x < cols) {
    const cell = line.getCell(x);
    if (!cell || cell.getChars() || sgrSequence(cell) !== style) break;
    x++;
  }
  return x - from;
}

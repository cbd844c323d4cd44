import type { IBuffer, IBufferLine } from '@xterm/headless';
import { sgrSequence } from './sgrSequence';

/**
 * Escape sequences that draw the screen rows of `buffer` exactly as they are, cell by cell:
 * text, wide characters, colours and attributes, and blank cells with their background
 * (erased with ECH, so they stay blank; an inverse one as xterm leaves it). A row that
 * continues the one above as a soft wrap is reached by printing on past that row's end, so
 * it is marked wrapped again.
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
    const cup = (column: number) => `\x1b[${y + 1};${column + 1}H`;
    if (pendingWrap && line.isWrapped) {
      // A wrapped row that starts blank: a space wraps onto it (marking it), then it is drawn as any row.
      if (!line.getCell(0)?.getChars()) out += ` ${cup(0)}`;
    } else if (line.isWrapped && y > 0) {
      // Marked as continuing a row above that ends blank (moved there by a scroll region):
      // two spaces print on across that row's end, which is then blanked again.
      const above = buffer.getLine(buffer.baseY + y - 1);
      const blank = above ? lastBlank(above, y - 1, cols) : { sequence: '', style: '' };
      out += `\x1b[${y};${cols}H  ${blank.sequence}${cup(0)}`;
      style = blank.style;
    } else {
      out += cup(0);
    }
    pendingWrap = false;
    const wideNext = widePushedOn(line, buffer.getLine(buffer.baseY + y + 1), cols);
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
        out += `${cup(x)}\u65e5${cup(x + 1)} ${cup(x + 1)}`;
        x++;
        continue;
      }
      if (cell.isInverse() && x === cols - 1 && !wideNext) {
        const blank = lastBlank(line, y, cols);
        out += blank.sequence;
        style = blank.style;
        break;
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

/**
 * The last cell of screen row `row`, a blank, as it is: erased in its background, or an
 * inverse one made the way xterm leaves one, from its left neighbour, which is then drawn
 * again. Returns the attributes it leaves set.
 */
function lastBlank(line: IBufferLine, row: number, cols: number): { sequence: string; style: string } {
  const cup = (column: number) => `\x1b[${row + 1};${column + 1}H`;
  const cell = line.getCell(cols - 1);
  const style = cell ? sgrSequence(cell) : '\x1b[0m';
  const left = cols > 1 ? line.getCell(cols - 2) : undefined;
  if (!cell?.isInverse() || !left || left.getWidth() !== 1) return { sequence: `${cup(cols - 1)}${style}\x1b[1X`, style };
  const leftStyle = sgrSequence(left);
  const redrawLeft = `${cup(cols - 2)}${leftStyle}${left.getChars() || '\x1b[1X'}`;
  return { sequence: `${cup(cols - 2)}${style}\u65e5${cup(cols - 2)} ${redrawLeft}`, style: leftStyle };
}

/**
 * The next row continues this one with a wide character that did not fit at its end, which
 * left the last cell blank in that character's attributes.
 */
function widePushedOn(line: IBufferLine, next: IBufferLine | undefined, cols: number): boolean {
  const first = next?.getCell(0);
  const last = line.getCell(cols - 1);
  if (!next?.isWrapped || first?.getWidth() !== 2 || !last || last.getChars()) return false;
  return sgrSequence(last) === sgrSequence(first);
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

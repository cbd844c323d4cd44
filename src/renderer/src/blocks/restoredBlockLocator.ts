import type { IBuffer } from '@xterm/xterm';
import type { Block } from '../../../shared/blocks';

/** How many rows up to search; older blocks in a huge scrollback stay unplaced. */
const MAX_ROWS_SEARCHED = 20_000;

/**
 * Best effort for blocks whose output is inside a serialized snapshot (reload or restore),
 * where byte offsets no longer map to rows: find each command's text on a row, newest block
 * first, each one above the previous. Returns block id → row of the command.
 */
export function locateRestoredBlocks(buffer: IBuffer, blocks: readonly Block[]): Map<string, number> {
  const found = new Map<string, number>();
  let searchFrom = buffer.baseY + buffer.cursorY;
  const lowestRow = Math.max(0, searchFrom - MAX_ROWS_SEARCHED);
  const newestFirst = [...blocks].sort((a, b) => b.outputOffset - a.outputOffset);
  for (const block of newestFirst) {
    const needle = firstCommandLine(block.command);
    if (!needle) continue;
    for (let row = searchFrom; row >= lowestRow; row--) {
      if (buffer.getLine(row)?.isWrapped) continue;
      if (logicalLineText(buffer, row).includes(needle)) {
        found.set(block.id, row);
        searchFrom = row - 1;
        break;
      }
    }
  }
  return found;
}

function firstCommandLine(command: string): string {
  return (command.split('\n')[0] ?? '').trim();
}

/** A row plus the rows soft-wrapped after it, as one string. */
function logicalLineText(buffer: IBuffer, row: number): string {
  let text = '';
  for (let current = row; ; current++) {
    const line = buffer.getLine(current);
    if (!line) break;
    const continues = buffer.getLine(current + 1)?.isWrapped === true;
    // Spaces at a wrap point belong to the text; only the logical line's end is trimmed.
    text += line.translateToString(!continues);
    if (!continues) break;
  }
  return text;
}

/** Cells kept for the duration label ("12 min 5 s" is the longest it usually gets). */
export const DURATION_LABEL_CELLS = 10;

/** Cells kept for a remote block's label, host and duration: `alice@db1 · 12 min 5 s`. */
export function rowLabelCells(shownHost: string): number {
  return shownHost.length + 3 + DURATION_LABEL_CELLS;
}

export type DurationPlacement = { align: 'right' } | { align: 'left'; column: number };

/**
 * Where a block's duration label may go on its command row (the row's text as the terminal
 * shows it, one character per cell): at the right edge when that is free; when something is
 * drawn there — zsh's right prompt (RPROMPT) — in the gap after the command, two cells past
 * its end; and nowhere (undefined) when the row has no blank stretch wide enough, so the label
 * never covers text.
 */
export function durationPlacement(row: string, cols: number, labelCells = DURATION_LABEL_CELLS): DurationPlacement | undefined {
  const used = row.replace(/\s+$/, '').length;
  if (used + 2 + labelCells <= cols) return { align: 'right' };
  const gap = /\S( {2,})\S/g;
  for (let match = gap.exec(row); match; match = gap.exec(row)) {
    const start = match.index + 1;
    if (match[1]!.length >= labelCells + 4) return { align: 'left', column: start + 2 };
    gap.lastIndex = start;
  }
  return undefined;
}

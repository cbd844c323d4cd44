/** The sizes a pane accepts: whatever a client asks for is clamped into these. */
export const MIN_COLS = 2;
export const MIN_ROWS = 1;
export const MAX_COLS = 2_000;
export const MAX_ROWS = 1_000;

export function clampSize(cols: number, rows: number): { cols: number; rows: number } {
  const safe = (value: number, min: number, max: number) =>
    Number.isFinite(value) ? Math.min(max, Math.max(min, Math.floor(value))) : min;
  return { cols: safe(cols, MIN_COLS, MAX_COLS), rows: safe(rows, MIN_ROWS, MAX_ROWS) };
}

/** The limits excerpts work within: how a budget is shared between head and tail, and how a caller's limit is read. */

/** Share of the budget that goes to the head; the tail, where failures usually are, gets the rest. */
export const HEAD_SHARE = 0.4;

/** A caller's limit as a whole number ≥ 1: NaN falls back, Infinity means no limit, -Infinity the least. */
export function excerptLimit(value: number, fallback: number): number {
  if (Number.isNaN(value)) return fallback;
  if (!Number.isFinite(value)) return value > 0 ? Number.MAX_SAFE_INTEGER : 1;
  return Math.max(1, Math.floor(value));
}

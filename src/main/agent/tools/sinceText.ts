const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/**
 * A point in time from "30m", "12h", "3d", "2w" (that long before `now`) or an ISO date or
 * date-time; null when the text is neither.
 */
export function parseSince(text: string, now: number): number | null {
  const span = /^\s*(\d{1,6})\s*([mhdw])\s*$/i.exec(text);
  if (span) return Math.max(0, now - Number(span[1]) * UNIT_MS[span[2]!.toLowerCase()]!);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text.trim())) return null;
  const time = Date.parse(text.trim());
  return Number.isNaN(time) ? null : Math.max(0, time);
}

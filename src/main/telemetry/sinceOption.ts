const RELATIVE = /^(\d+)\s*([wdhm])$/;
const UNIT_MS = { w: 604_800_000, d: 86_400_000, h: 3_600_000, m: 60_000 } as const;

/** `--since` of `tandem usage` and `tandem trace list`: `2w`, `7d`, `24h`, `30m` back from `now`, or an ISO date (`2026-11-01`, local midnight) or date-time. */
export function parseSince(text: string, now: Date): Date | { error: string } {
  const trimmed = text.trim();
  const relative = RELATIVE.exec(trimmed);
  if (relative) return new Date(now.getTime() - Number(relative[1]) * UNIT_MS[relative[2] as keyof typeof UNIT_MS]);
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(trimmed);
  if (day) {
    const at = new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3]));
    if (at.getMonth() === Number(day[2]) - 1 && at.getDate() === Number(day[3])) return at;
  } else if (/^\d{4}-\d{2}-\d{2}T/.test(trimmed) && !Number.isNaN(Date.parse(trimmed))) {
    return new Date(trimmed);
  }
  return { error: `--since takes a duration such as 2w, 7d, 24h or 30m, or an ISO date such as 2026-11-01; got "${text}".` };
}

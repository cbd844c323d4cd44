/** `"500ms"`, `"2s"`, `"1.5m"`, `"1h"` in milliseconds, or undefined for anything else (watchers.toml's debounce, `[watchers] wait_limit`). */
export function durationMs(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(text.trim());
  if (!match) return undefined;
  const unit = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 }[match[2] as 'ms' | 's' | 'm' | 'h'];
  return Math.round(Number(match[1]) * unit);
}

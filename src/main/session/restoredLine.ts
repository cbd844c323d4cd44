/**
 * The line written under a restored pane's old scrollback: when that session was saved, as
 * short as the pane needs ("── restored · 14:02 ──"; the date too when it was not today),
 * never wider than the pane (a wrapped rule reads as garbage). Dim, on its own row.
 */
export function restoredLine(savedAt: number, cols: number, now = Date.now()): string {
  const saved = new Date(savedAt);
  const time = `${pad(saved.getHours())}:${pad(saved.getMinutes())}`;
  const sameDay = new Date(now).toDateString() === saved.toDateString();
  const when = sameDay ? time : `${saved.getFullYear()}-${pad(saved.getMonth() + 1)}-${pad(saved.getDate())} ${time}`;
  // The last column is left free: a character there leaves the cursor waiting to wrap.
  const room = Math.max(1, cols - 1);
  const text = [`── restored · ${when} ──`, `restored · ${when}`, `restored ${time}`, 'restored'].find((candidate) => candidate.length <= room) ?? 'restored'.slice(0, room);
  return `\r\n\x1b[2m${text}\x1b[0m\r\n`;
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

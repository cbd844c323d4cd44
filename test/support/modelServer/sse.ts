/**
 * Server-Sent Events framing: one `event:` line (when the event is named), one `data:` line,
 * then a blank line. JSON from `JSON.stringify` never contains a raw newline, so a single
 * `data:` line always carries the whole payload.
 */
export function sseFrame(event: string | null, data: unknown): string {
  const dataLine = `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n`;
  return `${event === null ? '' : `event: ${event}\n`}${dataLine}\n`;
}

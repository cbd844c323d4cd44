/**
 * Output as lines: split the way `wc -l` sees them, and a single line cut in its middle without
 * splitting a surrogate pair. Character counts are UTF-16 code units (JavaScript string length).
 */
import { formatCount } from './countLabels';
import { HEAD_SHARE } from './excerptLimits';

/** The lines of a text, with `\r\n` as one break and no phantom empty line after a final break. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** The first `n` code units of `text`, one fewer if that would split a surrogate pair. */
function safePrefix(text: string, n: number): string {
  if (n <= 0) return '';
  if (n >= text.length) return text;
  const end = isHighSurrogate(text.charCodeAt(n - 1)) && isLowSurrogate(text.charCodeAt(n)) ? n - 1 : n;
  return text.slice(0, end);
}

/** The last `n` code units of `text`, one fewer if that would split a surrogate pair. */
function safeSuffix(text: string, n: number): string {
  if (n <= 0) return '';
  if (n >= text.length) return text;
  const start = text.length - n;
  const adjusted = isLowSurrogate(text.charCodeAt(start)) && isHighSurrogate(text.charCodeAt(start - 1)) ? start + 1 : start;
  return text.slice(adjusted);
}

/**
 * One line cut in its middle to about `keepChars` characters of content, with a marker saying
 * how much of the line is missing. Returns the line itself when it already fits.
 */
export function cutLineMiddle(line: string, keepChars: number): { text: string; keptChars: number } {
  if (line.length <= keepChars) return { text: line, keptChars: line.length };
  const keep = Math.max(0, Math.floor(keepChars));
  const head = safePrefix(line, Math.floor(keep * HEAD_SHARE));
  const tail = safeSuffix(line, keep - head.length);
  const omitted = line.length - head.length - tail.length;
  const marker = `… [${formatCount(omitted)} of ${formatCount(line.length)} chars omitted from this line] …`;
  return { text: `${head}${marker}${tail}`, keptChars: head.length + tail.length };
}

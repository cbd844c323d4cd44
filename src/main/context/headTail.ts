/**
 * Head + tail of long output within a line and a character budget, with one marker line that
 * states exactly what was left out and the totals. Sizes in markers are UTF-8 bytes, which is
 * what a user means by "KB".
 */
import { formatBytes, formatCount, plural } from './countLabels';
import { HEAD_SHARE, excerptLimit } from './excerptLimits';
import { cutLineMiddle, splitLines } from './outputLines';

export interface HeadTailOptions {
  /** Lines kept at most, not counting the marker line. */
  maxLines: number;
  /** Characters kept at most, not counting markers. */
  maxChars: number;
  /**
   * What was printed in all, when `text` is only its end (the start scrolled out of the
   * scrollback): the marker states these totals, not the text's.
   */
  printed?: { lines: number; bytes: number };
}

export interface HeadTailResult {
  text: string;
  totalLines: number;
  /** Length of the input in UTF-16 code units. */
  totalChars: number;
  truncated: boolean;
}

function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/**
 * The first ~40% and last ~60% of the lines of `text` within `maxLines` lines and `maxChars`
 * characters, joined by one marker line that states what was omitted and the totals:
 * `… [1,234 lines (56.7 KB) omitted; 1,400 lines (60.1 KB) in total] …`.
 * A line too long for the budget on its own is kept cut in its middle, with its own marker.
 * Text that fits is returned unchanged.
 */
export function headTail(text: string, options: HeadTailOptions): HeadTailResult {
  const maxLines = excerptLimit(options.maxLines, 200);
  const maxChars = excerptLimit(options.maxChars, 20_000);
  const lines = splitLines(text);
  const totalLines = lines.length;
  const totalChars = text.length;
  if (totalLines <= maxLines && totalChars <= maxChars) return { text, totalLines, totalChars, truncated: false };

  const headLineBudget = Math.floor(maxLines * HEAD_SHARE);
  const headCharBudget = Math.floor(maxChars * HEAD_SHARE);
  const head: string[] = [];
  let charsUsed = 0;
  let cut = false;

  // Head: whole lines while they fit; a first line too long on its own is cut to the budget.
  let h = 0;
  while (h < totalLines && head.length < headLineBudget) {
    const line = lines[h] as string;
    const cost = line.length + 1;
    if (charsUsed + cost <= headCharBudget) {
      head.push(line);
      charsUsed += cost;
      h++;
      continue;
    }
    if (head.length === 0) {
      const room = totalLines === 1 ? maxChars : headCharBudget;
      const piece = cutLineMiddle(line, room);
      head.push(piece.text);
      charsUsed += piece.keptChars + 1;
      cut = cut || piece.keptChars < line.length;
      h++;
    }
    break;
  }

  // Tail: from the end, with what is left of both budgets.
  const tail: string[] = [];
  const tailLineBudget = maxLines - head.length;
  let t = totalLines;
  while (t > h && tail.length < tailLineBudget) {
    const line = lines[t - 1] as string;
    const cost = line.length + 1;
    if (charsUsed + cost <= maxChars + 1) {
      tail.push(line);
      charsUsed += cost;
      t--;
      continue;
    }
    if (tail.length === 0 && maxChars - charsUsed > 0) {
      const piece = cutLineMiddle(line, maxChars - charsUsed);
      tail.push(piece.text);
      charsUsed += piece.keptChars + 1;
      cut = cut || piece.keptChars < line.length;
      t--;
    }
    break;
  }
  tail.reverse();

  const omittedLines = t - h;
  const parts = [...head];
  if (omittedLines > 0) {
    let omittedBytes = 0;
    for (let i = h; i < t; i++) omittedBytes += utf8Length(lines[i] as string) + 1;
    const totalBytes = utf8Length(lines.join('\n'));
    omittedBytes = Math.min(omittedBytes, totalBytes);
    const printed = options.printed;
    const total =
      printed && printed.lines > totalLines
        ? `${plural(printed.lines, 'line')} (${formatBytes(printed.bytes)}) printed in total; the first ${formatCount(printed.lines - totalLines)} scrolled out of the scrollback, ${formatCount(totalLines)} are kept`
        : `${plural(totalLines, 'line')} (${formatBytes(totalBytes)}) in total`;
    parts.push(`… [${plural(omittedLines, 'line')} (${formatBytes(omittedBytes)}) omitted; ${total}] …`);
  }
  parts.push(...tail);
  return { text: parts.join('\n'), totalLines, totalChars, truncated: omittedLines > 0 || cut };
}

/**
 * Head + tail of an output whose middle is gone: `head` is how it began (kept as it
 * streamed), `end` how it ended (what the scrollback still holds), and `printed` what it
 * printed in all. The marker between them states what is left out of the whole — never a
 * total of the text at hand alone. Falls back to headTail of `end` when the two would
 * overlap (nothing of the middle is missing from what is shown).
 */
export function headGapTail(head: string, end: string, printed: { lines: number; bytes: number }, options: HeadTailOptions): HeadTailResult {
  const maxLines = excerptLimit(options.maxLines, 200);
  const maxChars = excerptLimit(options.maxChars, 20_000);
  const first = takeLines(splitLines(head), Math.floor(maxLines * HEAD_SHARE), Math.floor(maxChars * HEAD_SHARE), 'first');
  const last = takeLines(splitLines(end), maxLines - first.lines.length, maxChars - first.chars, 'last');
  const shown = first.lines.length + last.lines.length;
  if (shown >= printed.lines || first.lines.length === 0) return headTail(end, { ...options, printed });
  const shownBytes = utf8Length([...first.lines, ...last.lines].join('\n')) + 1;
  const marker =
    `… [${plural(printed.lines - shown, 'line')} (${formatBytes(Math.max(0, printed.bytes - shownBytes))}) omitted; ` +
    `${plural(printed.lines, 'line')} (${formatBytes(printed.bytes)}) printed in total] …`;
  const text = [...first.lines, marker, ...last.lines].join('\n');
  return { text, totalLines: printed.lines, totalChars: text.length, truncated: true };
}

/** Whole lines from one end within the budgets; a single line too long for them is cut in its middle. */
function takeLines(lines: string[], maxLines: number, maxChars: number, from: 'first' | 'last'): { lines: string[]; chars: number } {
  const taken: string[] = [];
  let chars = 0;
  for (let n = 0; n < lines.length && taken.length < maxLines; n++) {
    const line = lines[from === 'first' ? n : lines.length - 1 - n]!;
    if (chars + line.length + 1 <= maxChars) {
      taken.push(line);
      chars += line.length + 1;
      continue;
    }
    if (taken.length === 0 && maxChars > 0) {
      const piece = cutLineMiddle(line, maxChars);
      taken.push(piece.text);
      chars += piece.keptChars + 1;
    }
    break;
  }
  if (from === 'last') taken.reverse();
  return { lines: taken, chars };
}

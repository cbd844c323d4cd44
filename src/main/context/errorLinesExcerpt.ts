/** An excerpt of the lines that look like errors, with context and the last lines, for output too long to send whole. */
import { agree, formatCount, plural } from './countLabels';
import { alternateEnds, findErrorLinesIn } from './errorLineDetection';
import { excerptLimit } from './excerptLimits';
import { cutLineMiddle, splitLines } from './outputLines';

export interface ErrorLinesOptions {
  /** Output lines kept at most (header and `…` separators not counted). */
  maxLines: number;
  /** The last lines of the output are always kept; this many (default 5, fewer if maxLines is small). */
  tailLines?: number;
  /** Longest line kept whole; longer ones are cut in their middle. Default 500. */
  maxLineChars?: number;
}

export interface ErrorLinesResult {
  text: string;
  totalLines: number;
  keptLines: number;
  /** Lines that matched an error pattern (all of them, kept or not). */
  errorCount: number;
  warningCount: number;
}

/**
 * The lines that look like errors, each with one line of context and its location lines
 * (stack frames, `file:line:col` after it), plus the last few lines of the
 * output, merged into ranges in order with `… [N lines omitted] …` between them and a header
 * saying how many lines of how many were kept. Pure heuristics.
 */
export function errorLines(text: string, options: ErrorLinesOptions): ErrorLinesResult {
  const maxLines = excerptLimit(options.maxLines, 200);
  const maxLineChars = excerptLimit(options.maxLineChars ?? 500, 500);
  const lines = splitLines(text);
  const totalLines = lines.length;
  const matches = findErrorLinesIn(lines);
  const errorCount = matches.filter((m) => m.severity === 'error').length;
  const warningCount = matches.length - errorCount;
  if (totalLines === 0) return { text: '[no output]', totalLines: 0, keptLines: 0, errorCount: 0, warningCount: 0 };

  const keep = new Set<number>();
  const wantedTail = Math.max(0, Math.floor(options.tailLines ?? 5));
  const tailCount = Math.min(Number.isFinite(wantedTail) ? wantedTail : 5, Math.max(1, Math.floor(maxLines / 3)), totalLines);
  for (let i = totalLines - tailCount; i < totalLines; i++) keep.add(i);

  const tryAdd = (indexes: number[]): boolean => {
    const fresh = [...new Set(indexes)].filter((i) => i >= 0 && i < totalLines && !keep.has(i));
    if (keep.size + fresh.length > maxLines) return false;
    for (const i of fresh) keep.add(i);
    return true;
  };
  const ordered = [
    ...alternateEnds(matches.filter((m) => m.severity === 'error')),
    ...alternateEnds(matches.filter((m) => m.severity === 'warning')),
  ];
  let locationsKept = false;
  for (const match of ordered) {
    if (keep.size >= maxLines) break;
    const locations = match.locations ?? [];
    const context = [match.line - 1, match.line, match.line + 1];
    if (tryAdd([...context, ...locations]) || tryAdd([match.line, ...locations])) locationsKept ||= locations.length > 0;
    else if (!tryAdd(context)) tryAdd([match.line]);
  }

  const kept = [...keep].sort((a, b) => a - b);
  const body: string[] = [];
  let previous = -1;
  for (const i of kept) {
    const gap = i - previous - 1;
    if (gap > 0) body.push(`… [${plural(gap, 'line')} omitted] …`);
    body.push(cutLineMiddle(lines[i] as string, maxLineChars).text);
    previous = i;
  }

  const what: string[] = [];
  if (errorCount > 0) what.push(`${plural(errorCount, 'line')} that ${agree(errorCount, 'looks', 'look')} like errors`);
  if (warningCount > 0) what.push(`${plural(warningCount, 'warning line')}`);
  const found = what.length > 0 ? `found ${what.join(' and ')}` : 'no lines look like errors';
  const shown: string[] = [];
  if (matches.length > 0) {
    const shownMatches = matches.filter((m) => keep.has(m.line)).length;
    const which = shownMatches === matches.length ? (matches.length === 1 ? 'it' : 'them') : `${formatCount(shownMatches)} of them`;
    shown.push(`showing ${which} with 1 line of context${locationsKept ? ' and where they happened' : ''}`);
  }
  if (tailCount > 0) shown.push(`the last ${plural(tailCount, 'line')}`);
  const header = `[${formatCount(kept.length)} of ${plural(totalLines, 'line')} kept; ${[found, shown.join(' and ')].filter(Boolean).join('; ')}]`;
  return { text: [header, ...body].join('\n'), totalLines, keptLines: kept.length, errorCount, warningCount };
}

/**
 * Model-free excerpts of long terminal output: head + tail with an exact account of what was
 * left out, the lines that look like errors, and a short summary. Nothing here cuts silently:
 * every omission is replaced by a marker that says how much is missing.
 *
 * Lines are the text split on `\n` (`\r\n` counts as one line break); a single trailing line
 * break ends the last line rather than starting an empty one, as `wc -l` would see it.
 * Character counts are UTF-16 code units (JavaScript string length); sizes in markers are
 * UTF-8 bytes, which is what a user means by "KB".
 */

export interface HeadTailOptions {
  /** Lines kept at most, not counting the marker line. */
  maxLines: number;
  /** Characters kept at most, not counting markers. */
  maxChars: number;
}

export interface HeadTailResult {
  text: string;
  totalLines: number;
  /** Length of the input in UTF-16 code units. */
  totalChars: number;
  truncated: boolean;
}

/** Share of the budget that goes to the head; the tail, where failures usually are, gets the rest. */
const HEAD_SHARE = 0.4;

const numberFormat = new Intl.NumberFormat('en-US');

export function formatCount(n: number): string {
  return numberFormat.format(n);
}

/** "512 B", "56.7 KB", "3.2 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${formatCount(bytes)} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${(bytes / (1024 * 1024 * 1024)).toFixed(1)} GB`;
}

function plural(n: number, word: string): string {
  return `${formatCount(n)} ${word}${n === 1 ? '' : 's'}`;
}

/** The lines of a text, with `\r\n` as one break and no phantom empty line after a final break. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
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

function budget(value: number, fallback: number): number {
  if (Number.isNaN(value)) return fallback;
  if (!Number.isFinite(value)) return value > 0 ? Number.MAX_SAFE_INTEGER : 1;
  return Math.max(1, Math.floor(value));
}

/**
 * The first ~40% and last ~60% of the lines of `text` within `maxLines` lines and `maxChars`
 * characters, joined by one marker line that states what was omitted and the totals:
 * `… [1,234 lines (56.7 KB) omitted; 1,400 lines (60.1 KB) in total] …`.
 * A line too long for the budget on its own is kept cut in its middle, with its own marker.
 * Text that fits is returned unchanged.
 */
export function headTail(text: string, options: HeadTailOptions): HeadTailResult {
  const maxLines = budget(options.maxLines, 200);
  const maxChars = budget(options.maxChars, 20_000);
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
    parts.push(
      `… [${plural(omittedLines, 'line')} (${formatBytes(omittedBytes)}) omitted; ` +
        `${plural(totalLines, 'line')} (${formatBytes(totalBytes)}) in total] …`,
    );
  }
  parts.push(...tail);
  return { text: parts.join('\n'), totalLines, totalChars, truncated: omittedLines > 0 || cut };
}

// ---------------------------------------------------------------------------------------------
// Error lines

export type ErrorSeverity = 'error' | 'warning';

export interface ErrorLineMatch {
  /** 0-based line number. */
  line: number;
  severity: ErrorSeverity;
}

/** Phrases that mention errors while reporting there were none ("0 errors", "failed: 0"). */
const NEGATED = [
  /\b(?:0|no|zero|without)\s+(?:errors?|failures?|failed|failing|problems?|warnings?|vulnerabilities)\b/gi,
  /\b(?:errors?|failures?|failed|warnings?)\s*[:=]\s*0\b/gi,
];

const ERROR_PATTERNS: RegExp[] = [
  /\berrors?\b/i, // error, Error, ERROR, `file:1:2: error`, error[E0308], error TS2322
  /[A-Za-z]+(?:Error|Exception)\b/, // TypeError, NullPointerException
  /\bexception\b/i,
  /\bfatal\b/i,
  /\bfail(?:ed|ure|ures|ing|s)?\b/i, // failed, FAIL, failure
  /^\s*Traceback \(most recent call last\)/,
  /\bpanic(?:ked)?\b/i,
  /\bdenied\b/i,
  /\bnot found\b/i,
  /\bNo such file or directory\b/i,
  /\b(?:ENOENT|EACCES|EPERM|EEXIST|EISDIR|ENOTDIR|ENOTEMPTY|EADDRINUSE|EADDRNOTAVAIL|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EMFILE|ENOSPC|EROFS|EBUSY|EAI_AGAIN|ENOTFOUND|ELOOP|EINVAL)\b/,
  /\bERR_[A-Z0-9_]{3,}\b/,
  /^npm ERR!/,
  /^npm error\b/,
  /\bSegmentation fault\b/i,
  /\bcore dumped\b/i,
  /\bAssertion(?:Error)? .*failed\b/i,
  /\bcommand not found\b/,
  /\bunhandled\b/i,
  /^\s*[✗✘✕×]\s/,
];

const WARNING_PATTERNS: RegExp[] = [/\bwarn(?:ing|ings)?\b/i, /^npm WARN\b/, /\bdeprecated\b/i];

function severityOf(line: string): ErrorSeverity | undefined {
  if (line.length > 4000) line = line.slice(0, 4000);
  let cleaned = line;
  for (const re of NEGATED) cleaned = cleaned.replace(re, ' ');
  if (ERROR_PATTERNS.some((re) => re.test(cleaned))) return 'error';
  if (WARNING_PATTERNS.some((re) => re.test(cleaned))) return 'warning';
  return undefined;
}

/**
 * Lines of an already split text that look like errors or warnings, in order. A Python
 * traceback adds its last frame (the `File "…", line N` line and the code line under it) and
 * the exception line that ends it, whatever that exception is called.
 */
export function findErrorLinesIn(lines: readonly string[]): ErrorLineMatch[] {
  const found = new Map<number, ErrorSeverity>();
  const mark = (i: number, severity: ErrorSeverity): void => {
    if (i < 0 || i >= lines.length) return;
    if (found.get(i) !== 'error') found.set(i, severity);
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const severity = severityOf(line);
    if (severity) mark(i, severity);
    if (/^\s*Traceback \(most recent call last\)/.test(line)) {
      let lastFrame = -1;
      let j = i + 1;
      for (; j < lines.length; j++) {
        const frameLine = lines[j] as string;
        if (/^\s+File "/.test(frameLine)) lastFrame = j;
        else if (!/^\s/.test(frameLine)) break;
      }
      if (lastFrame >= 0) {
        mark(lastFrame, 'error');
        if (lastFrame + 1 < j) mark(lastFrame + 1, 'error');
      }
      if (j < lines.length) mark(j, 'error');
    }
  }
  return [...found.entries()].sort((a, b) => a[0] - b[0]).map(([line, severity]) => ({ line, severity }));
}

/** Lines of `text` that look like errors or warnings (0-based line numbers), in order. */
export function findErrorLines(text: string): ErrorLineMatch[] {
  return findErrorLinesIn(splitLines(text));
}

/** First, last, second, second to last…: keeps both the root cause and the final failure. */
function alternateEnds<T>(items: readonly T[]): T[] {
  const out: T[] = [];
  for (let lo = 0, hi = items.length - 1; lo <= hi; lo++, hi--) {
    out.push(items[lo] as T);
    if (hi !== lo) out.push(items[hi] as T);
  }
  return out;
}

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
 * The lines that look like errors, each with one line of context, plus the last few lines of the
 * output, merged into ranges in order with `… [N lines omitted] …` between them and a header
 * saying how many lines of how many were kept. Pure heuristics.
 */
export function errorLines(text: string, options: ErrorLinesOptions): ErrorLinesResult {
  const maxLines = budget(options.maxLines, 200);
  const maxLineChars = budget(options.maxLineChars ?? 500, 500);
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
    const fresh = indexes.filter((i) => i >= 0 && i < totalLines && !keep.has(i));
    if (keep.size + fresh.length > maxLines) return false;
    for (const i of fresh) keep.add(i);
    return true;
  };
  const ordered = [
    ...alternateEnds(matches.filter((m) => m.severity === 'error')),
    ...alternateEnds(matches.filter((m) => m.severity === 'warning')),
  ];
  for (const match of ordered) {
    if (keep.size >= maxLines) break;
    if (!tryAdd([match.line - 1, match.line, match.line + 1])) tryAdd([match.line]);
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
  if (errorCount > 0) what.push(`${plural(errorCount, 'line')} that look like errors`);
  if (warningCount > 0) what.push(`${plural(warningCount, 'warning line')}`);
  const found = what.length > 0 ? `found ${what.join(' and ')}` : 'no lines look like errors';
  const shown: string[] = [];
  if (matches.length > 0) {
    const shownMatches = matches.filter((m) => keep.has(m.line)).length;
    const which = shownMatches === matches.length ? (matches.length === 1 ? 'it' : 'them') : `${formatCount(shownMatches)} of them`;
    shown.push(`showing ${which} with 1 line of context`);
  }
  if (tailCount > 0) shown.push(`the last ${plural(tailCount, 'line')}`);
  const header = `[${formatCount(kept.length)} of ${plural(totalLines, 'line')} kept; ${[found, shown.join(' and ')].filter(Boolean).join('; ')}]`;
  return { text: [header, ...body].join('\n'), totalLines, keptLines: kept.length, errorCount, warningCount };
}

// ---------------------------------------------------------------------------------------------
// Summary

const SUMMARY_FIRST = 3;
const SUMMARY_LAST = 5;
const SUMMARY_ERRORS = 5;
const SUMMARY_LINE_CHARS = 300;

/**
 * A short model-free summary: line count, the first 3 lines, a few error lines (with their line
 * numbers) and the last 5 lines. Short output is shown whole.
 */
export function summarizeOutput(text: string): string {
  const lines = splitLines(text);
  const total = lines.length;
  if (total === 0) return '(no output)';
  const show = (i: number): string => cutLineMiddle(lines[i] as string, SUMMARY_LINE_CHARS).text;
  if (total <= SUMMARY_FIRST + SUMMARY_LAST) {
    return [`${plural(total, 'line')}:`, ...lines.map((_, i) => show(i))].join('\n');
  }
  const out: string[] = [`${plural(total, 'line')}.`, 'First lines:'];
  for (let i = 0; i < SUMMARY_FIRST; i++) out.push(`  ${show(i)}`);
  const middle = findErrorLinesIn(lines).filter((m) => m.line >= SUMMARY_FIRST && m.line < total - SUMMARY_LAST);
  const errors = middle.filter((m) => m.severity === 'error');
  const warnings = middle.filter((m) => m.severity === 'warning');
  const chosen = alternateEnds(errors.length > 0 ? errors : warnings)
    .slice(0, SUMMARY_ERRORS)
    .sort((a, b) => a.line - b.line);
  if (chosen.length > 0) {
    const label = errors.length > 0 ? 'error' : 'warning';
    const count = errors.length > 0 ? errors.length : warnings.length;
    out.push(`Lines that look like ${label}s (${formatCount(chosen.length)} of ${formatCount(count)}):`);
    for (const m of chosen) out.push(`  line ${formatCount(m.line + 1)}: ${show(m.line)}`);
  }
  const skipped = total - SUMMARY_FIRST - SUMMARY_LAST;
  out.push(`… [${plural(skipped, 'line')} in between] …`, 'Last lines:');
  for (let i = total - SUMMARY_LAST; i < total; i++) out.push(`  ${show(i)}`);
  return out.join('\n');
}

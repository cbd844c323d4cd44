/**
 * Which lines of output look like errors or warnings: pattern heuristics, with "0 errors" and
 * the like not counted, a Python traceback's last frame and exception line added, and each
 * error's location lines (stack frames, `file:line:col`) attached to it.
 */
import { locationsAfter } from './locationLines';
import { splitLines } from './outputLines';

export type ErrorSeverity = 'error' | 'warning';

export interface ErrorLineMatch {
  /** 0-based line number. */
  line: number;
  severity: ErrorSeverity;
  /** An error's location lines after it (stack frames, `file:line:col`), which excerpts keep with it. */
  locations?: number[];
}

/**
 * Phrases that mention errors while reporting there were none: "0 errors", "0 failed",
 * "failed: 0", "errors = 0", and the counts of node's test runner and TAP (`ℹ fail 0`,
 * `# fail 0`). A zero followed by digits (`0.5`, `0,7`, `0x1F`) is another number, and one
 * followed by a colon is a name (`error 0: disk full`).
 */
const NEGATED = [
  /\b(?:0|no|zero|without)\s+(?:errors?|failures?|failed|failing|problems?|warnings?|vulnerabilities)\b/gi,
  /\b(?:errors?|failures?|failed|fail|warnings?)\s*(?:[:=]\s*|\s)0(?!\d|[.,]\d|x[0-9a-f]|\s*:)/gi,
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
  /^\s*[✗✘✕✖×]\s/,
];

const WARNING_PATTERNS: RegExp[] = [/\bwarn(?:ing|ings)?\b/i, /^npm WARN\b/, /\bdeprecated\b/i];

/**
 * A word every pattern above needs (case aside, like most of them): a line without one cannot
 * match, so most lines of a long log are passed over with one test instead of two dozen.
 */
const MAY_MATCH = /err|fail|exception|fatal|traceback|panic|denied|not found|no such file|segmentation|core dumped|unhandled|warn|deprecat|[✗✘✕✖×]/i;
/** The errno names (ENOENT …), which are upper case. */
const MAY_BE_ERRNO = /\bE[A-Z_]{3,}\b/;

function severityOf(line: string): ErrorSeverity | undefined {
  if (line.length > 4000) line = line.slice(0, 4000);
  if (!MAY_MATCH.test(line) && !MAY_BE_ERRNO.test(line)) return undefined;
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
  const isError = (i: number) => found.get(i) === 'error';
  return [...found.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([line, severity]) => {
      const locations = severity === 'error' ? locationsAfter(lines, line, isError) : [];
      return locations.length > 0 ? { line, severity, locations } : { line, severity };
    });
}

/** Lines of `text` that look like errors or warnings (0-based line numbers), in order. */
export function findErrorLines(text: string): ErrorLineMatch[] {
  return findErrorLinesIn(splitLines(text));
}

/** First, last, second, second to last…: keeps both the root cause and the final failure. */
export function alternateEnds<T>(items: readonly T[]): T[] {
  const out: T[] = [];
  for (let lo = 0, hi = items.length - 1; lo <= hi; lo++, hi--) {
    out.push(items[lo] as T);
    if (hi !== lo) out.push(items[hi] as T);
  }
  return out;
}

/** The shapes every detector shares, and the replacement text a user sees. */

/** A detector that is one global regex: each match is redacted whole, or as `redact` says. */
export interface PatternDetector {
  /** Short, stable name, shown in the replacement: `[REDACTED:<kind>]`. */
  kind: string;
  /** Global (a `g` flag is added if missing). After a match, the search goes on after it. */
  pattern: RegExp;
  /**
   * The replacement for one match, or undefined to keep the match as it is. Default: the
   * whole match becomes `[REDACTED:<kind>]`. Name-keeping detectors report their own kind.
   */
  redact?: (match: RegExpExecArray) => Redaction | undefined;
  /**
   * Text every match contains. When the text being scrubbed does not contain it, the pattern
   * is not run at all: most output holds no `sk-ant-`, and a substring search is much cheaper
   * than a regex pass.
   */
  needle?: string;
}

/** A detector that finds its spans itself, for rules a linear regex cannot express. */
export interface ScanDetector {
  kind: string;
  /** Non-overlapping spans, in order. */
  scan: (text: string) => Replacement[];
}

export type SecretDetector = PatternDetector | ScanDetector;

export interface Replacement {
  start: number;
  end: number;
  text: string;
  kind: string;
}

export interface Redaction {
  text: string;
  kind: string;
}

export const REDACTED_PREFIX = '[REDACTED:';

export function redacted(kind: string): string {
  return `${REDACTED_PREFIX}${kind}]`;
}

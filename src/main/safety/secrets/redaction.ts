/** The shapes every detector shares, and the replacement text a user sees. */
import type { KeywordHits, Locator } from './keywordScan';

/**
 * A detector that is one regex. With `keywords`, it is tried only where one of them stands
 * (found by the scrubber's single keyword pass, see keywordScan.ts): at the keyword's start,
 * or where `startsFrom` says a match holding that keyword would start. Every match must hold
 * one of its keywords. Without `keywords` it runs over the whole text.
 */
export interface PatternDetector {
  /** Short, stable name, shown in the replacement: `[REDACTED:<kind>]`. */
  kind: string;
  /** After a match, the search goes on after it (a `g` flag is added if missing). */
  pattern: RegExp;
  /**
   * The replacement for one match, or undefined to keep the match as it is. Default: the
   * whole match becomes `[REDACTED:<kind>]`. Name-keeping detectors report their own kind.
   */
  redact?: (match: RegExpExecArray) => Redaction | undefined;
  /**
   * The Shannon entropy (bits per character) the secret must reach for a match to count: the
   * last capture group that matched, or the whole match. For formats whose fixed part is
   * short, so that words and placeholders of the same shape are left alone.
   */
  minEntropy?: number;
  /** Literal text (ASCII) every match holds. */
  keywords?: readonly string[];
  /** Whether the keywords match in any case (default: exactly as written). */
  ignoreCase?: boolean;
  /** Where a match holding the keyword found at [start, end) may start (none: an empty list or -1); default: `start`. */
  startsFrom?: (text: string, start: number, end: number) => number | readonly number[];
}

/** A detector that finds its spans itself, for rules a linear regex cannot express, looking where its keywords are. */
export interface ScanDetector {
  kind: string;
  keywords: readonly string[];
  ignoreCase?: boolean;
  /** Turns its keyword hits (and runs of token characters) into the places it looks at, during the keyword pass (see Locator). */
  locate?: Locator;
  /** Non-overlapping spans, in order. `hits`: where the keywords stand, or the places `locate` gave. */
  scan: (text: string, hits: KeywordHits) => Replacement[];
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

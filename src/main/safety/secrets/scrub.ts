/**
 * Runs the detector table over a text: `scrubSecrets` replaces every secret with
 * `[REDACTED:<kind>]`; `findSecrets` says where they are. The search is findReplacements.ts;
 * the text is rebuilt once at the end.
 *
 * Everything here must stay linear on hostile input (a 4 MB line of base64, thousands of BEGIN
 * lines): every unbounded run in a detector's regex starts behind a negative lookbehind of its
 * own character class, so a match is tried only at the start of a run, and every other
 * repetition is bounded.
 */
import { SECRET_DETECTORS } from './detectors';
import { plural } from '../../../shared/countWords';
import { findReplacements } from './findReplacements';
import type { SecretDetector } from './redaction';

export interface ScrubResult {
  text: string;
  /** How many of each kind were replaced, sorted by kind. Empty when nothing was found. */
  redactions: { kind: string; count: number }[];
}

/** A redacted span of the original text. */
export interface SecretSpan {
  start: number;
  end: number;
  kind: string;
}

/** Replaces every secret the detectors recognise with `[REDACTED:<kind>]`; never throws. */
export function scrubSecrets(text: string, detectors: readonly SecretDetector[] = SECRET_DETECTORS): ScrubResult {
  const input = typeof text === 'string' ? text : String(text);
  const replacements = findReplacements(input, detectors);
  if (replacements.length === 0) return { text: input, redactions: [] };
  const counts = new Map<string, number>();
  const pieces: string[] = [];
  let last = 0;
  for (const r of replacements) {
    pieces.push(input.slice(last, r.start), r.text);
    last = r.end;
    counts.set(r.kind, (counts.get(r.kind) ?? 0) + 1);
  }
  pieces.push(input.slice(last));
  const redactions = [...counts.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([kind, count]) => ({ kind, count }));
  return { text: pieces.join(''), redactions };
}

/** Where `scrubSecrets` redacts: spans of the text, in order, with the kind each is reported as. */
export function findSecrets(text: string, detectors: readonly SecretDetector[] = SECRET_DETECTORS): SecretSpan[] {
  return findReplacements(typeof text === 'string' ? text : String(text), detectors).map(({ start, end, kind }) => ({ start, end, kind }));
}

/** "2 secrets redacted (github-token, password)" or '' when there were none. */
export function describeRedactions(redactions: ScrubResult['redactions']): string {
  const total = redactions.reduce((sum, r) => sum + r.count, 0);
  if (total === 0) return '';
  return `${plural(total, 'secret')} redacted (${redactions.map((r) => r.kind).join(', ')})`;
}

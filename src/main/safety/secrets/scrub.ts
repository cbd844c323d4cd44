/**
 * Runs the detector table over a text: `scrubSecrets` replaces every secret with
 * `[REDACTED:<kind>]`; `findSecrets` says where they are.
 *
 * Every detector looks at the original text. Where matches of two detectors overlap, the one
 * earlier in the table wins (a GitHub token under `GITHUB_TOKEN=` is reported as a
 * github-token, not as a token named by its variable); the text is rebuilt once at the end.
 *
 * Everything here must stay linear on hostile input (a 4 MB line of base64, thousands of BEGIN
 * lines): every unbounded run in a detector's regex starts behind a negative lookbehind of its
 * own character class, so a match is tried only at the start of a run, and every other
 * repetition is bounded.
 */
import { SECRET_DETECTORS } from './detectors';
import { plural } from '../../../shared/countWords';
import { redacted, type PatternDetector, type Replacement, type SecretDetector } from './redaction';

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

/** One global copy of each detector's pattern, reused from call to call. */
const compiled = new WeakMap<PatternDetector, RegExp>();

function globalPattern(detector: PatternDetector): RegExp {
  let re = compiled.get(detector);
  if (!re) {
    const flags = detector.pattern.flags.includes('g') ? detector.pattern.flags : `${detector.pattern.flags}g`;
    re = new RegExp(detector.pattern.source, flags);
    compiled.set(detector, re);
  }
  re.lastIndex = 0;
  return re;
}

function patternReplacements(text: string, detector: PatternDetector): Replacement[] {
  if (detector.needle !== undefined && !text.includes(detector.needle)) return [];
  const re = globalPattern(detector);
  const out: Replacement[] = [];
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    if (m[0] === '') {
      re.lastIndex++;
      continue;
    }
    const replacement = detector.redact ? detector.redact(m) : { text: redacted(detector.kind), kind: detector.kind };
    if (!replacement) continue;
    out.push({ start: m.index, end: m.index + m[0].length, ...replacement });
  }
  return out;
}

/**
 * `kept` plus those of `found` (one detector's replacements, in order) that overlap nothing
 * in it, in order of position.
 */
function mergeKeepingEarlier(text: string, kept: readonly Replacement[], found: readonly Replacement[]): Replacement[] {
  const out: Replacement[] = [];
  let k = 0;
  let lastEnd = 0; // end of the last replacement of `found` taken, so its own overlaps are dropped too
  for (const r of found) {
    if (r.end <= r.start || r.start < lastEnd || r.text === text.slice(r.start, r.end)) continue;
    while (k < kept.length && (kept[k] as Replacement).end <= r.start) out.push(kept[k++] as Replacement);
    if (k < kept.length && (kept[k] as Replacement).start < r.end) continue; // overlaps an earlier detector's
    out.push(r);
    lastEnd = r.end;
  }
  while (k < kept.length) out.push(kept[k++] as Replacement);
  return out;
}

function findReplacements(text: string, detectors: readonly SecretDetector[]): Replacement[] {
  let kept: Replacement[] = [];
  for (const detector of detectors) {
    const found = 'scan' in detector ? detector.scan(text) : patternReplacements(text, detector);
    if (found.length > 0) kept = mergeKeepingEarlier(text, kept, found);
  }
  return kept;
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

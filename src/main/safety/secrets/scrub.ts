/**
 * Runs the detector table over a text: `scrubSecrets` replaces every secret with
 * `[REDACTED:<kind>]`; `findSecrets` says where they are.
 *
 * One walk over the text finds every detector's keywords (keywordScan.ts); each detector then
 * looks at the original text where its keywords are (or at the places its Locator gave during
 * the walk), and finds what a search of the whole text would. Where matches of two detectors overlap, the one earlier in the table wins (a GitHub token under `GITHUB_TOKEN=` is reported as a
 * github-token, not as a token named by its variable); the text is rebuilt once at the end.
 *
 * Everything here must stay linear on hostile input (a 4 MB line of base64, thousands of BEGIN
 * lines): every unbounded run in a detector's regex starts behind a negative lookbehind of its
 * own character class, so a match is tried only at the start of a run, and every other
 * repetition is bounded.
 */
import { SECRET_DETECTORS } from './detectors';
import { shannonEntropy } from './entropy';
import { plural } from '../../../shared/countWords';
import { KeywordScanner, type Keyword, type KeywordHits } from './keywordScan';
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

/** Each detector's pattern as used: global for a whole-text search, sticky where its keywords are. */
const compiled = new WeakMap<PatternDetector, RegExp>();

function compiledPattern(detector: PatternDetector): RegExp {
  let re = compiled.get(detector);
  if (!re) {
    const flags = detector.pattern.flags.replace(/[gy]/g, '');
    re = new RegExp(detector.pattern.source, detector.keywords ? `${flags}y` : `${flags}g`);
    compiled.set(detector, re);
  }
  re.lastIndex = 0;
  return re;
}

/** The secret part of a match: its last capture group that matched, or the whole match. */
function secretPart(m: RegExpExecArray): string {
  for (let g = m.length - 1; g > 0; g--) if (m[g] !== undefined) return m[g] as string;
  return m[0];
}

function replacementFor(detector: PatternDetector, m: RegExpExecArray): Replacement | undefined {
  if (detector.minEntropy !== undefined && shannonEntropy(secretPart(m)) < detector.minEntropy) return undefined;
  const replacement = detector.redact ? detector.redact(m) : { text: redacted(detector.kind), kind: detector.kind };
  return replacement && { start: m.index, end: m.index + m[0].length, ...replacement };
}

function wholeTextReplacements(text: string, detector: PatternDetector): Replacement[] {
  const re = compiledPattern(detector);
  const out: Replacement[] = [];
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    if (m[0] === '') {
      re.lastIndex++;
      continue;
    }
    const r = replacementFor(detector, m);
    if (r) out.push(r);
  }
  return out;
}

/** The matches a whole-text search would find, found by trying the pattern only where a match can start. */
function keywordReplacements(text: string, detector: PatternDetector, hits: KeywordHits): Replacement[] {
  if (hits.starts.length === 0) return [];
  const starts: number[] = [];
  for (let h = 0; h < hits.starts.length; h++) {
    const start = hits.starts[h] as number;
    const from = detector.startsFrom ? detector.startsFrom(text, start, hits.ends[h] as number) : start;
    if (typeof from === 'number') {
      if (from >= 0) starts.push(from);
    } else {
      for (const candidate of from) if (candidate >= 0) starts.push(candidate);
    }
  }
  if (detector.startsFrom && starts.some((start, i) => i > 0 && start < (starts[i - 1] as number))) starts.sort((a, b) => a - b);
  const re = compiledPattern(detector);
  const out: Replacement[] = [];
  let searchFrom = 0;
  for (const start of starts) {
    if (start < searchFrom) continue;
    searchFrom = start + 1;
    re.lastIndex = start;
    const m = re.exec(text);
    if (m === null || m[0] === '') continue;
    searchFrom = start + m[0].length;
    const r = replacementFor(detector, m);
    if (r) out.push(r);
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

/** The keyword scanner of a detector table, built once per table. */
const scanners = new WeakMap<readonly SecretDetector[], KeywordScanner>();

function scannerFor(detectors: readonly SecretDetector[]): KeywordScanner {
  let scanner = scanners.get(detectors);
  if (!scanner) {
    const ids = new Map<string, number>();
    const keywords: Keyword[] = [];
    const consumers: number[][] = [];
    detectors.forEach((detector, d) => {
      const ignoreCase = detector.ignoreCase === true;
      for (const text of detector.keywords ?? []) {
        const key = `${ignoreCase ? 'i' : 's'}:${text}`;
        let id = ids.get(key);
        if (id === undefined) {
          id = keywords.length;
          ids.set(key, id);
          keywords.push({ text, ignoreCase });
          consumers.push([]);
        }
        (consumers[id] as number[]).push(d);
      }
    });
    scanner = new KeywordScanner(keywords, consumers, detectors.map((detector) => ('locate' in detector ? detector.locate : undefined)));
    scanners.set(detectors, scanner);
  }
  return scanner;
}

function findReplacements(text: string, detectors: readonly SecretDetector[]): Replacement[] {
  const hits = scannerFor(detectors).scan(text, detectors.length);
  let kept: Replacement[] = [];
  detectors.forEach((detector, d) => {
    const mine = hits[d] as KeywordHits;
    if (detector.keywords && mine.starts.length === 0) return; // none of its keywords (or places) is in the text: nothing it could match
    const found = 'scan' in detector ? detector.scan(text, mine) : detector.keywords ? keywordReplacements(text, detector, mine) : wholeTextReplacements(text, detector);
    if (found.length > 0) kept = mergeKeepingEarlier(text, kept, found);
  });
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

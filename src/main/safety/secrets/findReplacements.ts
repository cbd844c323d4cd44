/**
 * The search itself: one walk over the text finds every detector's keywords (keywordScan.ts);
 * each detector then looks at the original text where its keywords are (or at the places its
 * Locator gave during the walk), and finds what a search of the whole text would. Where matches
 * of two detectors overlap, the one earlier in the table wins (a GitHub token under
 * `GITHUB_TOKEN=` is reported as a github-token, not as a token named by its variable).
 */
import { shannonEntropy } from './entropy';
import { KeywordScanner, type Keyword, type KeywordHits, type Locator } from './keywordScan';
import { redacted, type PatternDetector, type Replacement, type SecretDetector } from './redaction';

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

/**
 * The matches a whole-text search would find, found by trying the pattern only where a match can
 * start: at its keywords' starts, or (with `startsFrom`) at the places startsLocator found.
 */
function keywordReplacements(text: string, detector: PatternDetector, hits: KeywordHits): Replacement[] {
  const re = compiledPattern(detector);
  const out: Replacement[] = [];
  let searchFrom = 0;
  for (const start of hits.starts) {
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
 * A pattern detector's `startsFrom` as a Locator: asked during the keyword pass, while the text
 * around each keyword is still in the processor's cache (asked later, each of thousands of
 * keywords scattered over a large text costs a cache miss).
 */
function startsLocator(startsFrom: NonNullable<PatternDetector['startsFrom']>): Locator {
  return {
    atKeyword: (text, start, end, place) => {
      const from = startsFrom(text, start, end);
      if (typeof from === 'number') {
        if (from >= 0) place(from);
      } else {
        for (const candidate of from) if (candidate >= 0) place(candidate);
      }
    },
  };
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
    if (r.end <= r.start || r.start < lastEnd || (r.text.length === r.end - r.start && text.startsWith(r.text, r.start))) continue; // compared in place, no copy
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
    const locators = detectors.map((detector) => ('locate' in detector ? detector.locate : 'startsFrom' in detector && detector.startsFrom ? startsLocator(detector.startsFrom) : undefined));
    scanner = new KeywordScanner(keywords, consumers, locators);
    scanners.set(detectors, scanner);
  }
  return scanner;
}

/** Every replacement the detectors of `detectors` make in `text`, in order, none overlapping. */
export function findReplacements(text: string, detectors: readonly SecretDetector[]): Replacement[] {
  return replacementsOf(text, detectors, scannerFor(detectors).scan(text, detectors.length));
}

function replacementsOf(text: string, detectors: readonly SecretDetector[], hits: KeywordHits[]): Replacement[] {
  let kept: Replacement[] = [];
  detectors.forEach((detector, d) => {
    const mine = hits[d] as KeywordHits;
    if (detector.keywords && mine.starts.length === 0) return; // none of its keywords (or places) is in the text: nothing it could match
    const found = 'scan' in detector ? detector.scan(text, mine) : detector.keywords ? keywordReplacements(text, detector, mine) : wholeTextReplacements(text, detector);
    if (found.length > 0) kept = mergeKeepingEarlier(text, kept, found);
  });
  return kept;
}


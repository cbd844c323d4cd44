/**
 * The keyword pass walks each stretch of text as two halves at once, the second starting a little
 * before the middle (keywordWalk.ts, in WebAssembly and in JavaScript): on long texts it must find
 * every keyword and every run of token characters exactly once, wherever they stand against a
 * stretch's middle or end.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KeywordScanner, TOKEN_RUN, type Keyword, type Locator } from '../../src/main/safety/secrets/keywordScan';

/** Every [start, end) where `keyword` stands in `text`, overlapping ones included, in order. */
function naiveHits(text: string, keyword: Keyword): [number, number][] {
  const haystack = keyword.ignoreCase ? text.toLowerCase() : text;
  const needle = keyword.ignoreCase ? keyword.text.toLowerCase() : keyword.text;
  const out: [number, number][] = [];
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) out.push([at, at + needle.length]);
  return out;
}

const naiveRuns = (text: string): number[] => [...text.matchAll(new RegExp(`(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{${TOKEN_RUN}}`, 'g'))].map((m) => m.index);

/** A long keyword sets how far before a stretch's middle the second half's walk starts. */
const KEYWORDS: Keyword[] = [
  { text: 'key', ignoreCase: true },
  { text: 'Bearer', ignoreCase: false },
  { text: '-----BEGIN OPENSSH PRIVATE KEY-----', ignoreCase: false },
  { text: 'ss', ignoreCase: false },
];
const runStarts: Locator = { atKeyword: () => undefined, atTokenRuns: (_text, runStarts, count, place) => runStarts.subarray(0, count).forEach((runStart) => place(runStart)) };
// The walk in WebAssembly (the scrubber's), and the same walk in JavaScript (for a host without it).
const scanners = [false, true].map((javaScriptWalk) => new KeywordScanner(KEYWORDS, KEYWORDS.map((_, i) => [i]), [...KEYWORDS.map(() => undefined), runStarts], { javaScriptWalk }));

function expectSameAsNaive(text: string): void {
  for (const scanner of scanners) {
    const hits = scanner.scan(text, KEYWORDS.length + 1);
    KEYWORDS.forEach((keyword, d) => {
      const mine = hits[d];
      expect(mine && Array.from(mine.starts, (start, i) => [start, mine.ends[i]])).toEqual(naiveHits(text, keyword));
    });
    expect(Array.from(hits[KEYWORDS.length]?.starts ?? [])).toEqual(naiveRuns(text));
  }
}

const unit = fc.oneof(
  fc.constantFrom(...KEYWORDS.map((k) => k.text), 'KEY', 'bearer', 'sss', '-----BEGIN OPENSSH PRIVATE KEY', ' ', '\n', '=', '─', 'é'),
  fc.integer({ min: 1, max: 45 }).map((n) => 'x'.repeat(n)),
);

describe('KeywordScanner on texts of several stretches', () => {
  it('finds what a naive search finds, keywords and runs across every middle and end of a stretch', () => {
    fc.assert(
      fc.property(fc.array(unit, { minLength: 3000, maxLength: 9000 }), (units) => expectSameAsNaive(units.join(''))),
      { numRuns: 25 },
    );
  });

  it('finds a keyword and a run ending at each place around the middle of a stretch', () => {
    const keyword = '-----BEGIN OPENSSH PRIVATE KEY-----';
    for (let offset = 8192 - 80; offset <= 8192 + 80; offset++) {
      const run = 'y'.repeat(TOKEN_RUN + 3);
      expectSameAsNaive(`${'.'.repeat(offset - keyword.length)}${keyword} ${'.'.repeat(60)}${run} ${'.'.repeat(20_000)}`);
      expectSameAsNaive(`${'.'.repeat(offset - TOKEN_RUN)}${run}.${'ss'.repeat(50)}${'.'.repeat(20_000)}`);
    }
  });
});

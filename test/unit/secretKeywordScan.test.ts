/**
 * The scrubber's keyword pass (an Aho–Corasick automaton over every detector's keywords) and
 * the rule shapes that use it: it must find every place a keyword stands — overlapping ones,
 * in any case for a case-blind keyword, exactly as written otherwise — and hand each detector
 * its own hits in order. Both ways it finds them: the automaton's walk, and the search keyword by
 * keyword that texts get until the automaton is built.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ASSIGNMENT_OPERATORS } from '../../src/main/safety/secrets/assignments';
import { KeywordScanner, TOKEN_RUN, type Keyword, type KeywordScannerOptions, type Locator } from '../../src/main/safety/secrets/keywordScan';
import { SECRET_DETECTORS, scrubSecrets, type SecretDetector } from '../../src/main/safety/secretScrubber';
import { ALNUM, pseudo } from '../support/pseudoText';

/** Every [start, end) where `keyword` stands in `text`, overlapping ones included. */
function naiveHits(text: string, keyword: Keyword): [number, number][] {
  const out: [number, number][] = [];
  const haystack = keyword.ignoreCase ? text.replace(/[A-Z]/g, (c) => c.toLowerCase()) : text;
  const needle = keyword.ignoreCase ? keyword.text.toLowerCase() : keyword.text;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) out.push([at, at + needle.length]);
  return out;
}

function hitsOf(scanner: KeywordScanner, text: string, detectors: number, d: number): [number, number][] {
  const hits = scanner.scan(text, detectors)[d];
  if (!hits) throw new Error(`no hits for detector ${d}`);
  return Array.from(hits.starts, (start, i) => [start, hits.ends[i] as number]);
}

const byPosition = (a: [number, number], b: [number, number]): number => a[0] - b[0] || a[1] - b[1];

const WAYS: [string, KeywordScannerOptions][] = [
  ['the automaton', { searchBudget: 0 }],
  ['a search per keyword', { searchBudget: Infinity }],
];

describe.each(WAYS)('KeywordScanner, by %s', (_way, options) => {
  const scannerOf = (keywords: Keyword[], consumers: number[][], locators: (Locator | undefined)[] = []): KeywordScanner => new KeywordScanner(keywords, consumers, locators, options);

  it('finds overlapping keywords and keywords inside others', () => {
    const keywords: Keyword[] = [
      { text: 'pass', ignoreCase: true },
      { text: 'sshpass', ignoreCase: false },
      { text: 'ss', ignoreCase: false },
    ];
    const scanner = scannerOf(keywords, [[0], [1], [2]]);
    const text = 'sshpass -p x; PASSWORD=1; passpass';
    expect(hitsOf(scanner, text, 3, 0)).toEqual([[3, 7], [14, 18], [26, 30], [30, 34]]);
    expect(hitsOf(scanner, text, 3, 1)).toEqual([[0, 7]]);
    expect(hitsOf(scanner, text, 3, 2)).toEqual([[0, 2], [5, 7], [28, 30], [32, 34]]);
  });

  it('matches a case-sensitive keyword only as written, a case-blind one in any case', () => {
    const scanner = scannerOf([{ text: 'Bearer', ignoreCase: false }, { text: 'token', ignoreCase: true }], [[0], [1]]);
    const text = 'bearer BEARER Bearer TOKEN Token token';
    expect(hitsOf(scanner, text, 2, 0)).toEqual([[14, 20]]);
    expect(hitsOf(scanner, text, 2, 1)).toEqual([[21, 26], [27, 32], [33, 38]]);
  });

  it('hands a keyword two detectors ask for to both, in order of position', () => {
    const scanner = scannerOf([{ text: 'key', ignoreCase: true }, { text: 'api_key', ignoreCase: false }], [[0, 1], [1]]);
    const text = 'api_key=1 KEY=2';
    expect(hitsOf(scanner, text, 2, 0)).toEqual([[4, 7], [10, 13]]);
    expect(hitsOf(scanner, text, 2, 1)).toEqual([[0, 7], [4, 7], [10, 13]]);
  });

  it('refuses a keyword that is not printable ASCII', () => {
    expect(() => scannerOf([{ text: 'pässword', ignoreCase: true }], [[0]])).toThrow(/printable ASCII/);
  });

  it('does not take a character outside Latin-1 for the one its low byte spells', () => {
    const scanner = scannerOf([{ text: 'pk', ignoreCase: false }], [[0]]);
    // U+0150 has the low byte of 'P': the walk sees `Pk`, the check drops it.
    expect(hitsOf(scanner, 'Ők pk', 1, 0)).toEqual([[3, 5]]);
    const blind = scannerOf([{ text: 'pk', ignoreCase: true }], [[0]]);
    expect(hitsOf(blind, 'Ők PK', 1, 0)).toEqual([[3, 5]]);
  });

  it('finds keywords in a long text, across the stretches it walks at a time, among characters above Latin-1', () => {
    const keywords: Keyword[] = [
      { text: 'pk', ignoreCase: false },
      { text: 'token', ignoreCase: true },
    ];
    const scanner = scannerOf(keywords, [[0], [1]]);
    // 7 characters a unit, so that keywords fall across every boundary of the walk's stretches; surrogate pairs and U+0150 (low byte of `P`).
    const text = 'Ők pk ToKEN 😀 tokpk '.repeat(6000).slice(3);
    keywords.forEach((keyword, d) => expect(hitsOf(scanner, text, 2, d)).toEqual(naiveHits(text, keyword)));
  });

  it('finds many hits (its room for them grows)', () => {
    const scanner = scannerOf([{ text: ':', ignoreCase: false }], [[0]]);
    const text = 'a:'.repeat(200_000);
    const hits = scanner.scan(text, 1)[0];
    expect(hits?.starts.length).toBe(200_000);
    expect(hits?.starts[199_999]).toBe(399_999);
  });

  it('finds what a plain search finds, for any keywords and text', () => {
    const letters = 'abAB:_-é\u0161';
    const keywordArb = fc.record({ text: fc.string({ unit: fc.constantFrom(...'abAB:_-'.split('')), minLength: 1, maxLength: 4 }), ignoreCase: fc.boolean() });
    fc.assert(
      fc.property(fc.array(keywordArb, { minLength: 1, maxLength: 6 }), fc.string({ unit: fc.constantFrom(...letters.split('')), maxLength: 200 }), (keywords, text) => {
        const scanner = scannerOf(keywords, keywords.map((_, i) => [i]));
        keywords.forEach((keyword, i) => {
          expect(hitsOf(scanner, text, keywords.length, i).sort(byPosition)).toEqual(naiveHits(text, keyword));
        });
      }),
      { numRuns: 300 },
    );
  });
});

describe.each(WAYS)('KeywordScanner, by %s: places located during the pass', (_way, options) => {
  const scannerOf = (keywords: Keyword[], consumers: number[][], locators: (Locator | undefined)[] = []): KeywordScanner => new KeywordScanner(keywords, consumers, locators, options);
  const TOKEN = 'aZ09_-';
  /** Where every run of at least TOKEN_RUN token characters starts: a plain regex search. */
  const naiveRuns = (text: string): number[] => [...text.matchAll(new RegExp(`(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{${TOKEN_RUN}}`, 'g'))].map((m) => m.index);
  /** A detector that looks where token runs start, and a place after each of its keywords. */
  const runsAndKeywordEnds: Locator = { atKeyword: (_text, _start, end, place) => place(end), atTokenRuns: (_text, runStarts, count, place) => runStarts.subarray(0, count).forEach((runStart) => place(runStart)) };
  const placesOf = (scanner: KeywordScanner, text: string): number[] => Array.from(scanner.scan(text, 1)[0]?.starts ?? []);

  it('hands a locating detector where token runs start, however the text is cut into keywords', () => {
    const scanner = scannerOf([{ text: 'key', ignoreCase: true }, { text: 'a-', ignoreCase: false }, { text: ':', ignoreCase: false }], [[0], [0], [0]], [runsAndKeywordEnds]);
    const plain = scannerOf([{ text: 'key', ignoreCase: true }, { text: 'a-', ignoreCase: false }, { text: ':', ignoreCase: false }], [[0], [0], [0]]);
    // Single characters (a letter outside Latin-1 and one inside it are no token characters), and stretches of token characters, so that runs are long.
    const unit = fc.oneof(fc.constantFrom(...`${TOKEN}:= "'\u0141\u00e9key`.split('')), fc.constant(`${TOKEN}key`));
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 80 }), (units) => {
        const text = units.join('');
        const keywordEnds = Array.from(plain.scan(text, 1)[0]?.ends ?? []);
        expect(placesOf(scanner, text)).toEqual([...new Set([...naiveRuns(text), ...keywordEnds])].sort((a, b) => a - b));
      }),
      { numRuns: 300 },
    );
  });

  it('finds runs across the stretches it walks at a time, and many of them', () => {
    const scanner = scannerOf([{ text: 'key', ignoreCase: true }], [[0]], [runsAndKeywordEnds]);
    const text = `${'x'.repeat(TOKEN_RUN + 7)} `.repeat(100_000);
    const places = placesOf(scanner, text);
    expect(places.length).toBe(100_000);
    expect(places).toEqual(naiveRuns(text));
  });

  it('leads the assignment scan to every `:` and `=` a long token follows', () => {
    /** The operators a look at every `:` and `=` finds a long token after: past a `=` or `>`, blanks and a quote. */
    const naiveOperators = (text: string): number[] => {
      const out: number[] = [];
      for (let at = 0; at < text.length; at++) {
        if (text[at] !== ':' && text[at] !== '=') continue;
        let v = at + 1;
        if (text[v] === '=' || text[v] === '>') v++;
        while (text[v] === ' ' || text[v] === '\t') v++;
        if (text[v] === '"' || text[v] === "'") v++;
        if (/^[A-Za-z0-9_-]{20}/.test(text.slice(v, v + TOKEN_RUN))) out.push(at);
      }
      return out;
    };
    const scanner = scannerOf([{ text: 'never', ignoreCase: false }], [[0]], [ASSIGNMENT_OPERATORS]);
    const unit = fc.oneof(fc.constantFrom(':', '=', '>', ' ', '\t', '"', "'", 'x', '.'), fc.constant('a'.repeat(TOKEN_RUN - 2)));
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 60 }), (units) => {
        const text = units.join('');
        expect(placesOf(scanner, text)).toEqual(naiveOperators(text));
      }),
      { numRuns: 500 },
    );
  });
});

describe('scrubSecrets: rules that use the keyword pass', () => {
  it('tries a keyword rule where its keyword is, and where startsFrom says the match starts', () => {
    const detectors: SecretDetector[] = [
      { kind: 'acme-key', keywords: ['acme_'], pattern: /acme_[0-9]{8}\b/ },
      // The keyword is in the middle of the match: the match starts at the `id-` before it.
      { kind: 'zeta-key', keywords: ['.zeta.'], startsFrom: (_text, at) => at - 'id-1234'.length, pattern: /id-[0-9]{4}\.zeta\.[a-z]{6}/ },
    ];
    expect(scrubSecrets('a acme_12345678 b id-4321.zeta.qwerty c', detectors).text).toBe('a [REDACTED:acme-key] b [REDACTED:zeta-key] c');
  });

  it('leaves a match below a rule’s entropy floor alone', () => {
    const detectors: SecretDetector[] = [...SECRET_DETECTORS, { kind: 'acme-key', keywords: ['acme_'], pattern: /acme_([A-Za-z0-9]{24})\b/, minEntropy: 3.5 }];
    const random = `acme_${pseudo(24, ALNUM, 31)}`;
    const repeated = `acme_${'ab'.repeat(12)}`;
    expect(scrubSecrets(`${random} ${repeated}`, detectors).text).toBe(`[REDACTED:acme-key] ${repeated}`);
  });
});

describe('scrubSecrets: assignments found from a keyword of their name', () => {
  // Short values, so that no operator is looked at for a long token after it: only the name's keyword leads to it.
  const cases: [string, string][] = [
    [`$dbPassword .= 'Sum!2x';`, `$dbPassword .= '[REDACTED:password]';`],
    ['x_token.= "abc!2x9"', 'x_token.= "[REDACTED:token]"'],
    ['DB_PASSWORD ?= Sum!2x', 'DB_PASSWORD ?= [REDACTED:password]'],
    ['DB_PASSWORD += Sum!2x', 'DB_PASSWORD += [REDACTED:password]'],
    ['"db_password"   :   "Sum!2x"', '"db_password"   :   "[REDACTED:password]"'],
    ['var dbToken string = "abc!2x9"', 'var dbToken string = "[REDACTED:token]"'],
    ['val apiKey: String = "abc!2x9"', 'val apiKey: String = "[REDACTED:api-key]"'],
    [`password => 'Sum!2x'`, `password => '[REDACTED:password]'`],
    ['token := "abc!2x9"', 'token := "[REDACTED:token]"'],
    // A Makefile variable far from its line's start (column 61) with its value on the lines below: those indented more than the name.
    [`${'x'.repeat(60)} API_TOKEN ?= >\n${' '.repeat(64)}Sum!2x-Abc\n`, `${'x'.repeat(60)} API_TOKEN ?= >\n${' '.repeat(64)}[REDACTED:token]\n`],
    [`${'x'.repeat(60)} API_TOKEN ?= >\n${' '.repeat(50)}Sum!2x-Abc\n`, `${'x'.repeat(60)} API_TOKEN ?= >\n${' '.repeat(50)}Sum!2x-Abc\n`],
  ];
  for (const [text, scrubbed] of cases) {
    it(JSON.stringify(text), () => {
      expect(scrubSecrets(text).text).toBe(scrubbed);
    });
  }
});

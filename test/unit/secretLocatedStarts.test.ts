/**
 * A pattern rule's `startsFrom` is asked during the keyword pass (findReplacements.ts,
 * startsLocator): the rule must still find what a search of the whole text finds, where one
 * keyword gives several starts, out of order, and starts of neighbouring keywords coincide.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scrubSecrets, type SecretDetector } from '../../src/main/safety/secretScrubber';

const PATTERN = /(?:id-[0-9]{4}|[0-9]{2})?\.zeta\.[a-z]{6}/;
/** A match starts 7 characters before its keyword (`id-1234`), 2 (`12`), or at it. */
const located: SecretDetector[] = [{ kind: 'zeta-key', keywords: ['.zeta.'], startsFrom: (_text, at) => [at, at - 2, at - 'id-1234'.length], pattern: PATTERN }];
const wholeText: SecretDetector[] = [{ kind: 'zeta-key', pattern: PATTERN }];

describe('pattern rules with startsFrom', () => {
  it('find what a search of the whole text finds', () => {
    const unit = fc.constantFrom('id-1234', 'id-12', '12', '1', '.zeta.', 'qwerty', 'qwe', ' ', '\n', 'x');
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 40 }), (units) => {
        const text = units.join('');
        expect(scrubSecrets(text, located)).toEqual(scrubSecrets(text, wholeText));
      }),
      { numRuns: 3000 },
    );
  });

  it('start a match at the first of a keyword’s starts that holds one', () => {
    expect(scrubSecrets('a id-4321.zeta.qwerty 12.zeta.abcdef .zeta.ghijkl', located).text).toBe('a [REDACTED:zeta-key] [REDACTED:zeta-key] [REDACTED:zeta-key]');
  });
});

/**
 * The `.netrc` rule reads a line only when its `password` stands within 600 characters of the
 * line's start; the line start is looked for no further back than that (a long minified line
 * holding `password` is not walked back over). Both sides of the bound, after a long line.
 */
import { describe, expect, it } from 'vitest';
import { ALNUM, pseudo } from '../support/pseudoText';
import { scrubSecrets } from '../../src/main/safety/secretScrubber';

const PW = `${pseudo(10, ALNUM, 203)}!${pseudo(4, ALNUM, 205)}`;

describe('scrubSecrets: a .netrc line is read when its `password` stands within 600 characters of the line start', () => {
  const line = (blanks: number): string => `${' '.repeat(blanks)}password ${PW}`;
  // A long line holding `password` first, so that the look back for the next line's start has a line end to stop at.
  const after = (blanks: number): string => `${'x'.repeat(5000)} password\n${line(blanks)}`;
  it('at 600 characters', () => {
    expect(scrubSecrets(line(600)).text).toBe(`${' '.repeat(600)}password [REDACTED:password]`);
    expect(scrubSecrets(after(600)).text).toBe(`${'x'.repeat(5000)} password\n${' '.repeat(600)}password [REDACTED:password]`);
  });
  it('not at 601 characters, nor at a later `password` on the same line', () => {
    for (const text of [line(601), after(601), `${' '.repeat(700)}password ${PW} password ${PW}`]) expect(scrubSecrets(text).text).toBe(text);
  });
});

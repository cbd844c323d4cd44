/**
 * The assignment scan takes a name's letters and hash while it walks back over the name
 * (assignmentNames.ts, nameBack); they must be what a read of the name from its start gives
 * (lettersAndHash), or the name table (nameInfo.ts) would miss every name it holds.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_NAME, lettersAndHash, nameBack, walkedName } from '../../src/main/safety/secrets/assignmentNames';

const nameCharacter = fc.constantFrom(...'abcxyzABCXYZ0189_.-');

describe('nameBack', () => {
  it('stops at the first character no name holds, or MAX_NAME back, with the letters and hash of what it walked over', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 4 }), fc.array(nameCharacter, { maxLength: 120 }), fc.constantFrom(' ', '"', '$', ''), (after, name, before) => {
        const text = `${before}${name.join('')}${after.replace(/[\w.-]/g, ' ')}`;
        const end = before.length + name.length;
        const start = nameBack(text, end);
        expect(start).toBe(Math.max(before.length, end - MAX_NAME));
        const walked = { ...walkedName };
        lettersAndHash(text, start, end);
        expect(walked).toEqual(walkedName);
      }),
      { numRuns: 500 },
    );
  });

  it('takes the hash the name table is keyed by: (hash × 31 + code) for each character in order', () => {
    const text = ' api_Key.9';
    nameBack(text, text.length);
    let hash = 0;
    for (const c of 'api_Key.9') hash = (Math.imul(hash, 31) + c.charCodeAt(0)) | 0;
    expect(walkedName.hash).toBe(hash);
    expect(walkedName.letters).toBe([...'apikey'].reduce((bits, c) => bits | (1 << (c.charCodeAt(0) - 97)), 0));
  });
});

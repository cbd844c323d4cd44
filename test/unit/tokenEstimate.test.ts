import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../../src/main/context/tokenEstimate';

describe('estimateTokens', () => {
  it('is 0 for empty text and at least 1 otherwise', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('a')).toBe(1);
  });

  it('counts English and code at about 3.5–4 characters per token', () => {
    const prose = 'The quick brown fox jumps over the lazy dog. '.repeat(100);
    const code = 'export function add(a: number, b: number): number {\n  return a + b;\n}\n'.repeat(60);
    for (const text of [prose, code]) {
      const tokens = estimateTokens(text);
      expect(tokens).toBeGreaterThanOrEqual(Math.floor(text.length / 4));
      expect(tokens).toBeLessThanOrEqual(Math.ceil(text.length / 3.5));
    }
  });

  it('counts non-ASCII text heavier per character than ASCII', () => {
    const n = 400;
    const ascii = estimateTokens('a'.repeat(n));
    const accented = estimateTokens('é'.repeat(n));
    const cjk = estimateTokens('漢'.repeat(n));
    const emoji = estimateTokens('🙂'.repeat(n));
    expect(accented).toBeGreaterThan(ascii);
    expect(cjk).toBeGreaterThan(accented);
    expect(cjk).toBe(n);
    // An emoji is one character written as two UTF-16 units; it is counted once, at 2 tokens.
    expect(emoji).toBe(2 * n);
  });

  it('property: never negative, monotonic under appending, and roughly additive', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), fc.string({ unit: 'binary', maxLength: 300 }), (a, b) => {
        const ta = estimateTokens(a);
        const tb = estimateTokens(b);
        const tab = estimateTokens(a + b);
        expect(ta).toBeGreaterThanOrEqual(0);
        expect(tab).toBeGreaterThanOrEqual(Math.max(ta, tb));
        expect(tab).toBeLessThanOrEqual(ta + tb + 1);
      }),
    );
  });

  it('property: at most one token per UTF-16 unit, lone surrogates included', () => {
    const units = fc.oneof(fc.string({ unit: 'binary', minLength: 1, maxLength: 300 }), fc.string({ unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 20 }));
    fc.assert(
      fc.property(units, (text) => {
        expect(estimateTokens(text)).toBeLessThanOrEqual(Math.max(1, text.length));
      }),
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FloodSkip, type FloodScreen } from '../../src/main/panes/floodSkip';

const screen: FloodScreen = { cols: () => 80, rows: () => 24, scrollback: () => 1000, parsedScreen: () => ({ offset: 0, plain: true }) };
const encode = (text: string) => new TextEncoder().encode(text);
const lineFeeds = (bytes: Uint8Array) => bytes.filter((byte) => byte === 0x0a).length;

describe('FloodSkip.scan', () => {
  it("counts a plain run's line feeds for the backlog, chunk by chunk, however the chunks fall", () => {
    const part = fc.constantFrom('ok ', 'café ', '数据', '\x1b[31m', '\x1b[0m', '\x1b[38;5;200m', '\r\n', 'x');
    fc.assert(
      fc.property(fc.array(part, { maxLength: 60 }), fc.array(fc.integer({ min: 1, max: 400 }), { maxLength: 10 }), (parts, cuts) => {
        const bytes = encode(parts.join(''));
        const points = [...new Set(cuts.filter((cut) => cut < bytes.length)), bytes.length].sort((a, b) => a - b);
        const skip = new FloodSkip(screen);
        let from = 0;
        for (const point of points) {
          const chunk = bytes.subarray(from, point);
          expect(skip.scan(chunk)).toBe(lineFeeds(chunk));
          from = point;
        }
      }),
    );
  });

  it('says it did not count once the output is not plain (a bare line feed, a cursor move)', () => {
    const skip = new FloodSkip(screen);
    expect(skip.scan(encode('one\r\ntwo\r\n'))).toBe(2);
    expect(skip.scan(encode('three\nfour\r\n'))).toBe(-1);
    const other = new FloodSkip(screen);
    expect(other.scan(encode('a\r\n\x1b[2Ab\r\n'))).toBe(-1);
  });
});

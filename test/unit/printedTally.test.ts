import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PrintedTally } from '../../src/main/blocks/printedTally';

function tally(...chunks: string[]) {
  const counter = new PrintedTally();
  for (const chunk of chunks) counter.add('b1', Buffer.from(chunk, 'utf8'));
  return counter.of('b1');
}

const counts = (...chunks: string[]) => {
  const counted = tally(...chunks);
  return counted && { lines: counted.lines, bytes: counted.bytes };
};

describe('PrintedTally', () => {
  it('counts lines and text bytes, a last line without its newline included', () => {
    expect(counts('one\r\ntwo\r\n')).toEqual({ lines: 2, bytes: 8 });
    expect(counts('one\r\ntw', 'o')).toEqual({ lines: 2, bytes: 7 });
    expect(counts('héllo\n')).toEqual({ lines: 1, bytes: 7 });
    expect(new PrintedTally().of('none')).toBeUndefined();
  });

  it('leaves out escape sequences (colours, OSC), also split across chunks', () => {
    expect(counts('\x1b[1;31mred\x1b[0m\n')).toEqual({ lines: 1, bytes: 4 });
    expect(counts('\x1b[1;3', '1mred\x1b', '[0m\n')).toEqual({ lines: 1, bytes: 4 });
    expect(counts('\x1b]8;;http://x\x1b\\link\x1b]8;;\x07\n')).toEqual({ lines: 1, bytes: 5 });
  });

  it('keeps counts per block', () => {
    const counter = new PrintedTally();
    counter.add('a', Buffer.from('1\n2\n'));
    counter.add('b', Buffer.from('3\n'));
    expect(counter.of('a')).toMatchObject({ lines: 2, bytes: 4 });
    expect(counter.of('b')).toMatchObject({ lines: 1, bytes: 2 });
  });

  it('keeps how the output began: its first 100 lines as text, a carriage return starting a line over', () => {
    expect(tally('\x1b[32mok\x1b[0m\r\n 10%\r 55%\r100%\r\ndone\n')?.head).toBe('ok\n100%\ndone');
    const seq = tally(...Array.from({ length: 2_000 }, (_, n) => `${n + 1}\r\n`));
    expect(seq?.head).toBe(Array.from({ length: 100 }, (_, n) => n + 1).join('\n'));
    expect(seq?.lines).toBe(2_000);
    // A line longer than the budget is cut where a whole line ends, never inside a character.
    expect(tally('é'.repeat(20_000))?.head).toBe('é'.repeat(8_192));
    expect(tally('€'.repeat(20_000))?.head).toBe('€'.repeat(5_461));
  });

  it('counts the same once the head is full and chunks without escapes take the quick path (property)', () => {
    const filler = `${'x'.repeat(99)}\n`.repeat(200);
    fc.assert(
      fc.property(fc.array(fc.string().map((text) => text.replace(/\x1b/g, '')), { minLength: 1, maxLength: 10 }), (chunks) => {
        const text = filler + chunks.join('');
        const visible = text.replace(/[\r\x07]/g, '');
        const lastVisible = visible.at(-1);
        const expected = { lines: visible.split('\n').length - 1 + (lastVisible !== '\n' ? 1 : 0), bytes: Buffer.byteLength(visible) };
        expect(counts(filler, ...chunks)).toEqual(expected);
      }),
    );
  });

  it('plain text cut anywhere: the bytes of the text, and its lines (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string().map((text) => text.replace(/[\x1b\r\x07]/g, '')), { minLength: 1, maxLength: 10 }), (chunks) => {
        const text = chunks.join('');
        const expected = text === '' ? { lines: 0, bytes: 0 } : { lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0), bytes: Buffer.byteLength(text) };
        expect(counts(...chunks) ?? { lines: 0, bytes: 0 }).toEqual(expected);
      }),
    );
  });

  it('long stretches of text (counted by searching) and short ones count alike, in views of larger buffers too (property)', () => {
    const piece = fc.oneof(
      fc.constantFrom('\r\n', '\n', '\r', '\x07', 'é', '\x1b[1;32m', '\x1b[0m', '\x1b]7;file:///tmp\x07', 'word '),
      fc.integer({ min: 200, max: 700 }).map((n) => 'x'.repeat(n)),
      fc.string({ maxLength: 40 }).map((text) => text.replace(/\x1b/g, '')),
    );
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 30 }), fc.array(fc.nat(), { maxLength: 4 }), (pieces, cuts) => {
        // The first 100 lines are kept as the head, byte by byte; the counting after them is what is tested.
        const output = `${'h'.repeat(50)}\n`.repeat(101) + pieces.join('');
        const bytes = Buffer.from(output, 'utf8');
        const visible = Buffer.from(output.replace(/\x1b\[[0-9;]*m|\x1b\][^\x07]*\x07|[\r\x07]/g, ''), 'utf8');
        const text = visible.toString('latin1');
        const expected = { lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0), bytes: visible.length };
        // Each chunk a plain Uint8Array view at an offset into a bigger buffer, as the mirror's thread gets them.
        const ends = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
        const counter = new PrintedTally();
        let start = 0;
        for (const end of [...ends, bytes.length]) {
          const padded = new Uint8Array(end - start + 16).fill(0x0a);
          padded.set(bytes.subarray(start, end), 8);
          counter.add('b1', padded.subarray(8, 8 + end - start));
          start = end;
        }
        const counted = counter.of('b1');
        expect(counted && { lines: counted.lines, bytes: counted.bytes }).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PrintedTally } from '../../src/main/blocks/printedTally';

function tally(...chunks: string[]) {
  const counter = new PrintedTally();
  for (const chunk of chunks) counter.add('b1', Buffer.from(chunk, 'utf8'));
  return counter.of('b1');
}

describe('PrintedTally', () => {
  it('counts lines and text bytes, a last line without its newline included', () => {
    expect(tally('one\r\ntwo\r\n')).toEqual({ lines: 2, bytes: 8 });
    expect(tally('one\r\ntw', 'o')).toEqual({ lines: 2, bytes: 7 });
    expect(tally('héllo\n')).toEqual({ lines: 1, bytes: 7 });
    expect(new PrintedTally().of('none')).toBeUndefined();
  });

  it('leaves out escape sequences (colours, OSC), also split across chunks', () => {
    expect(tally('\x1b[1;31mred\x1b[0m\n')).toEqual({ lines: 1, bytes: 4 });
    expect(tally('\x1b[1;3', '1mred\x1b', '[0m\n')).toEqual({ lines: 1, bytes: 4 });
    expect(tally('\x1b]8;;http://x\x1b\\link\x1b]8;;\x07\n')).toEqual({ lines: 1, bytes: 5 });
  });

  it('keeps counts per block', () => {
    const counter = new PrintedTally();
    counter.add('a', Buffer.from('1\n2\n'));
    counter.add('b', Buffer.from('3\n'));
    expect(counter.of('a')).toEqual({ lines: 2, bytes: 4 });
    expect(counter.of('b')).toEqual({ lines: 1, bytes: 2 });
  });

  it('plain text cut anywhere: the bytes of the text, and its lines (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string().map((text) => text.replace(/[\x1b\r\x07]/g, '')), { minLength: 1, maxLength: 10 }), (chunks) => {
        const text = chunks.join('');
        const expected = text === '' ? undefined : { lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0), bytes: Buffer.byteLength(text) };
        const counted = tally(...chunks);
        if (expected) expect(counted).toEqual(expected);
        else expect(counted ?? { lines: 0, bytes: 0 }).toEqual({ lines: 0, bytes: 0 });
      }),
    );
  });
});

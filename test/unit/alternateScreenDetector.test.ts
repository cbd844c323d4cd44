import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AlternateScreenDetector } from '../../src/main/blocks/alternateScreenDetector';

const bytes = (text: string) => Buffer.from(text, 'latin1');

describe('alternate screen detector', () => {
  it('sees the switch in any of its spellings, and nothing else', () => {
    for (const sequence of ['\x1b[?1049h', '\x1b[?1047h', '\x1b[?47h']) expect(new AlternateScreenDetector().push(bytes(`a${sequence}b`))).toBe(true);
    const detector = new AlternateScreenDetector();
    expect(detector.push(bytes('plain output, \x1b[?1049l leaving it, \x1b[?2004h bracketed paste, \x1b[1049h'))).toBe(false);
  });

  it('sees it split across chunks at any point, however small the chunks', () => {
    const stream = 'some output\r\n\x1b[?1049h\x1b[H\x1b[2Jscreen';
    const start = stream.indexOf('\x1b[?1049h');
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: stream.length - 1 }), { maxLength: 12 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const detector = new AlternateScreenDetector();
        let previous = 0;
        let foundIn = -1;
        for (const [index, point] of [...points, stream.length].entries()) {
          if (detector.push(bytes(stream.slice(previous, point))) && foundIn < 0) foundIn = index;
          previous = point;
        }
        // Found exactly in the chunk where the sequence ends.
        const end = start + '\x1b[?1049h'.length;
        const expected = [...points, stream.length].findIndex((point) => point >= end);
        expect(foundIn).toBe(expected);
      }),
    );
  });

  it('in any stream cut anywhere, reports a switch in exactly the chunk where the stream first holds one', () => {
    const piece = fc.constantFrom('text ', '\r\n', '\x1b', '\x1b[', '\x1b[?', '\x1b[?1049', '\x1b[?1049h', '\x1b[?47h', '\x1b[?1047l', '\x1b[K', 'h', '[?', '1049h', '4', '7h');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), fc.array(fc.integer({ min: 1, max: 400 }), { maxLength: 15 }), (pieces, cuts) => {
        const stream = pieces.join('');
        const points = [...new Set(cuts.filter((cut) => cut < stream.length))].sort((a, b) => a - b);
        const detector = new AlternateScreenDetector();
        let previous = 0;
        const found: number[] = [];
        for (const [index, point] of [...points, stream.length].entries()) {
          if (detector.push(bytes(stream.slice(previous, point)))) found.push(index);
          previous = point;
        }
        // Each chunk reports whether a switch ends inside it.
        const expected = [...points, stream.length].flatMap((point, index) => {
          const from = index === 0 ? 0 : points[index - 1]!;
          const ends = ['\x1b[?1049h', '\x1b[?1047h', '\x1b[?47h'].some((sequence) => {
            for (let at = stream.indexOf(sequence); at !== -1; at = stream.indexOf(sequence, at + 1)) {
              const end = at + sequence.length;
              if (end > from && end <= point) return true;
            }
            return false;
          });
          return ends ? [index] : [];
        });
        expect(found).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });
});

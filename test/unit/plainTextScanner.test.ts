import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PlainTextScanner } from '../../src/main/blocks/mirror/plainTextScanner';

/** Rows xterm advances for one line of `width` ASCII cells and CR LF on a `cols`-wide screen. */
const rowsOf = (width: number, cols: number) => (width > cols ? Math.ceil(width / cols) : 1);

function scanInChunks(bytes: Uint8Array, cuts: number[], cols: number): PlainTextScanner {
  const scanner = new PlainTextScanner();
  scanner.beginRun(cols);
  let start = 0;
  for (const end of [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b).concat(bytes.length)) {
    scanner.scan(bytes.subarray(start, end));
    start = end;
  }
  return scanner;
}

describe('PlainTextScanner', () => {
  it('counts the rows and lines of plain ASCII lines exactly, around the screen width, however the bytes are cut (property)', () => {
    const cols = fc.integer({ min: 1, max: 40 });
    fc.assert(
      fc.property(cols, fc.array(fc.integer({ min: 0, max: 130 }), { minLength: 1, maxLength: 12 }), fc.array(fc.nat(), { maxLength: 5 }), (cols, widths, cuts) => {
        const text = widths.map((width, i) => String.fromCharCode(0x21 + (i % 90)).repeat(width) + '\r\n').join('');
        const scanner = scanInChunks(Buffer.from(text, 'latin1'), cuts, cols);
        expect(scanner.plain).toBe(true);
        expect(scanner.linesSoFar).toBe(widths.length);
        expect(scanner.rowsSoFar).toBe(widths.reduce((sum, width) => sum + rowsOf(width, cols), 0));
      }),
      { numRuns: 300 },
    );
  });

  it('with colours and characters of unknown width in a line, never counts more rows than xterm advances (property)', () => {
    const piece = fc.oneof(fc.integer({ min: 1, max: 50 }).map((n) => 'a'.repeat(n)), fc.constantFrom('é', '中', '\x1b[1;31m', '\x1b[0m', ' '));
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 40 }), fc.array(fc.array(piece, { maxLength: 8 }), { minLength: 1, maxLength: 8 }), fc.array(fc.nat(), { maxLength: 5 }), (cols, lines, cuts) => {
        const text = lines.map((pieces) => pieces.join('') + '\r\n').join('');
        const scanner = scanInChunks(Buffer.from(text, 'utf8'), cuts, cols);
        // Widest case: é one cell, 中 two, escapes none.
        const truth = lines.reduce((sum, pieces) => sum + rowsOf(pieces.reduce((width, piece) => width + (piece === '中' ? 2 : piece.startsWith('\x1b') ? 0 : piece.length), 0), cols), 0);
        expect(scanner.plain).toBe(true);
        expect(scanner.linesSoFar).toBe(lines.length);
        expect(scanner.rowsSoFar).toBeLessThanOrEqual(truth);
      }),
      { numRuns: 300 },
    );
  });

  it('a line with a control character or an escape other than SGR is not plain', () => {
    for (const text of ['ab\x08c\r\n', 'a\x1b[2Jb\r\n', 'a\tb\r\n', 'a\nb\r\n', 'a\x1b]0;t\x07b\r\n']) {
      expect(scanInChunks(Buffer.from(text, 'latin1'), [], 80).plain, JSON.stringify(text)).toBe(false);
    }
  });
});

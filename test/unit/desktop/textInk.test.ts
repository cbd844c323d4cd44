import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RgbaImage } from '../../../src/main/desktop/raster/rgbaImage';
import { otsuThreshold, textInk } from '../../../src/main/desktop/raster/textInk';

// textInk: a dialog's text as black ink on white, without the button outlines, frames and
// stipples that kept Tesseract from reading "Ok" inside xmessage's rounded buttons.

/** An image drawn from rows of characters: '#' is `ink`, anything else `paper`. */
function drawn(rows: string[], ink: [number, number, number] = [0, 0, 0], paper: [number, number, number] = [255, 255, 255]): RgbaImage {
  const width = rows[0]!.length;
  const data = new Uint8Array(width * rows.length * 4);
  rows.forEach((row, y) => [...row].forEach((char, x) => data.set([...(char === '#' ? ink : paper), 255], (y * width + x) * 4)));
  return { width, height: rows.length, data };
}

/** The ink of textInk's output as rows of '#' and '.'. */
function inkRows(image: RgbaImage): string[] {
  const out = textInk(image);
  return Array.from({ length: out.height }, (_, y) => Array.from({ length: out.width }, (_, x) => (out.data[y * out.width + x] === 0 ? '#' : '.')).join(''));
}

// A button: a rounded outline around two letters ("Ok" as blocks), and a word beside it.
const BUTTON = [
  '....................',
  '.#########......#...',
  '#.........#....###..',
  '#.##..#.#.#.....#...',
  '#.##..##..#.....#...',
  '#.##..#.#.#.....#...',
  '#.........#.....#...',
  '.#########......#...',
  '....................',
];

describe('textInk', () => {
  it("erases a button's outline around its label and keeps the letters and the word beside it", () => {
    expect(inkRows(drawn(BUTTON))).toEqual([
      '....................',
      '................#...',
      '...............###..',
      '..##..#.#.......#...',
      '..##..##........#...',
      '..##..#.#.......#...',
      '................#...',
      '................#...',
      '....................',
    ]);
  });

  it('light text on a dark window is ink as well (the less common side is ink)', () => {
    expect(inkRows(drawn(BUTTON, [230, 230, 230], [20, 20, 40]))).toEqual(inkRows(drawn(BUTTON)));
  });

  it('erases a shape far taller than the letters (a stipple, an icon)', () => {
    const rows = ['##.........', '##..#.#.#..', '##..#.#.#..', '##.........', '##.........', '##.........', '##.........', '##.........'];
    expect(inkRows(drawn(rows))).toEqual(['...........', '....#.#.#..', '....#.#.#..', '...........', '...........', '...........', '...........', '...........']);
  });

  it('only ever takes ink away: every output pixel is black or white, and black only where the image had ink', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }), { minLength: 4, maxLength: 8 }), (cells) => {
        const rows = cells.map((row) => row.map((ink) => (ink ? '#' : '.')).join(''));
        const image = drawn(rows);
        const out = textInk(image);
        const inked = rows.join('').split('').filter((char) => char === '#').length;
        // The less common side is ink: with more ink than paper, the paper pixels are the ink.
        const inkChar = inked * 2 <= rows.join('').length ? '#' : '.';
        out.data.forEach((level, i) => {
          expect([0, 255]).toContain(level);
          if (level === 0) expect(rows.join('')[i]).toBe(inkChar);
        });
      }),
    );
  });
});

describe('otsuThreshold', () => {
  it('splits two groups of gray levels between them', () => {
    const levels = Uint8Array.from([...Array(50).fill(30), ...Array(50).fill(200)]);
    const threshold = otsuThreshold(levels);
    expect(threshold).toBeGreaterThanOrEqual(30);
    expect(threshold).toBeLessThan(200);
  });
});

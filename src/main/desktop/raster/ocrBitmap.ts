import type { RgbaImage } from './rgbaImage';

/** Captures up to this many pixels (a 2560×1600 screen) are enlarged for OCR. */
const ENLARGE_UP_TO_PIXELS = 4_100_000;
const ENLARGEMENT = 2;

/**
 * Tesseract reads 9–13 px screen fonts poorly (it is tuned for larger print). Doubling the
 * capture, nearest-neighbour so bitmap glyphs stay crisp, recovers most of them. Other
 * factors were tried on xmessage's and xterm's fixed fonts: 3× misread "Build" as "wild",
 * 4× read as well as 2× at four times the pixels.
 */
export function ocrEnlargement(width: number, height: number): number {
  return width * height <= ENLARGE_UP_TO_PIXELS ? ENLARGEMENT : 1;
}

/**
 * A binary PGM (grayscale, what Tesseract reads fastest from stdin), enlarged `factor`
 * times, inside a white margin of `border` pixels.
 */
export function grayscalePgm(image: RgbaImage, factor: number, border = 0): Buffer {
  const width = image.width * factor + 2 * border;
  const height = image.height * factor + 2 * border;
  const header = Buffer.from(`P5\n${width} ${height}\n255\n`, 'ascii');
  const pixels = Buffer.alloc(width * height, 255);
  const row = new Uint8Array(image.width * factor);
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const i = (y * image.width + x) * 4;
      const gray = (image.data[i]! * 77 + image.data[i + 1]! * 150 + image.data[i + 2]! * 29) >> 8;
      row.fill(gray, x * factor, (x + 1) * factor);
    }
    for (let copy = 0; copy < factor; copy++) pixels.set(row, (border + y * factor + copy) * width + border);
  }
  return Buffer.concat([header, pixels]);
}

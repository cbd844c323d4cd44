import { grayLevels, textInk, type GrayImage } from './textInk';
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

/** How a capture is drawn for Tesseract: its gray levels, or only its text's ink (textInk). */
export type OcrRendering = 'gray' | 'ink';

/**
 * A binary PGM (grayscale, what Tesseract reads fastest from stdin) of the capture, enlarged
 * `factor` times, inside a white margin of `border` pixels.
 */
export function grayscalePgm(image: RgbaImage, factor: number, border = 0, rendering: OcrRendering = 'gray'): Buffer {
  return enlargedPgm(rendering === 'ink' ? textInk(image) : grayLevels(image), factor, border);
}

function enlargedPgm(gray: GrayImage, factor: number, border: number): Buffer {
  const width = gray.width * factor + 2 * border;
  const height = gray.height * factor + 2 * border;
  const header = Buffer.from(`P5\n${width} ${height}\n255\n`, 'ascii');
  const pixels = Buffer.alloc(width * height, 255);
  const row = new Uint8Array(gray.width * factor);
  for (let y = 0; y < gray.height; y++) {
    for (let x = 0; x < gray.width; x++) row.fill(gray.data[y * gray.width + x]!, x * factor, (x + 1) * factor);
    for (let copy = 0; copy < factor; copy++) pixels.set(row, (border + y * factor + copy) * width + border);
  }
  return Buffer.concat([header, pixels]);
}

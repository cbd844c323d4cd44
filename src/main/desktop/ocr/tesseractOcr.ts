import { DesktopError } from '../desktopError';
import { NO_TESSERACT } from '../installedPrograms';
import type { OcrWord } from '../desktop';
import { intersectRects, type Rect } from '../geometry';
import { grayscalePgm, ocrEnlargement, type OcrRendering } from '../raster/ocrBitmap';
import type { RgbaImage } from '../raster/rgbaImage';
import type { ScreenshotSpace } from '../screenshotSpace';
import { runTool } from '../toolProcess';
import { parseTesseractTsv } from './tesseractTsv';

const OCR_TIMEOUT_MS = 60_000;
/** Up to this many pixels (a 500×400 dialog) a capture is read several ways. */
const SEVERAL_READINGS_UP_TO_PIXELS = 200_000;

/** One way of reading a capture: enlarged `factor` times inside a white `border`, drawn as `rendering`, in page segmentation mode `psm`. */
export interface Reading {
  factor: number;
  border: number;
  rendering: OcrRendering;
  psm: 3 | 6 | 11;
}

/**
 * How a small capture (a dialog) is read, each reading adding the words the earlier ones did
 * not find. First its text's ink alone (textInk: button outlines, frames and stipples erased)
 * at 2× in a margin, as a block (psm 6), then as sparse text (psm 11); then the gray reading
 * that read best before. On xmessage dialogs at 1920×1080 (the default font and X's `fixed`,
 * bare and in an openbox frame; five dialogs, 21 words) the gray readings alone found 12 words
 * and never "Ok", "Yes" or "No"; with the ink readings first all 21 were found.
 */
export const DIALOG_READINGS: readonly Reading[] = [
  { factor: 2, border: 10, rendering: 'ink', psm: 6 },
  { factor: 2, border: 10, rendering: 'ink', psm: 11 },
  { factor: 2, border: 10, rendering: 'gray', psm: 3 },
];

/**
 * Reads the text of `image` (the capture of `capturedArea`, in screen pixels) with the
 * Tesseract CLI and returns the words with boxes in `space`, the image space the model sees.
 *
 * Tesseract is erratic on small dialogs in bitmap fonts: no one reading read every xmessage
 * dialog tried. A small capture is therefore read several ways (DIALOG_READINGS), and each
 * reading adds the words the earlier ones did not find (no overlapping box). A large one (a
 * terminal, a screen without windows) is read once, in gray, psm 3: a second reading would
 * double the time of a full-screen OCR.
 */
export async function recognizeText(image: RgbaImage, capturedArea: Rect, space: ScreenshotSpace, signal?: AbortSignal, path?: string): Promise<OcrWord[]> {
  if (image.width === 0 || image.height === 0) return [];
  const small = image.width * image.height <= SEVERAL_READINGS_UP_TO_PIXELS;
  const readings: readonly Reading[] = small ? DIALOG_READINGS : [{ factor: ocrEnlargement(image.width, image.height), border: 0, rendering: 'gray', psm: 3 }];
  const words: OcrWord[] = [];
  for (const reading of readings) {
    const found = await readOnce(image, capturedArea, space, reading, signal, path);
    const lineOffset = Math.max(0, ...words.map((word) => word.line + 1));
    for (const word of found) {
      if (words.some((known) => overlaps(known.box, word.box))) continue;
      words.push({ ...word, line: word.line + lineOffset });
    }
  }
  return words;
}

async function readOnce(image: RgbaImage, capturedArea: Rect, space: ScreenshotSpace, reading: Reading, signal: AbortSignal | undefined, path: string | undefined): Promise<OcrWord[]> {
  const { factor, border } = reading;
  const tsv = await runTesseract(grayscalePgm(image, factor, border, reading.rendering), reading.psm, signal, path);
  return parseTesseractTsv(tsv).map((word) => ({
    text: word.text,
    confidence: Math.round(word.confidence),
    line: word.line,
    box: space.rectToImage({
      x: capturedArea.x + (word.box.x - border) / factor,
      y: capturedArea.y + (word.box.y - border) / factor,
      width: word.box.width / factor,
      height: word.box.height / factor,
    }),
  }));
}

/** Two boxes share at least a third of the smaller one. */
function overlaps(a: Rect, b: Rect): boolean {
  const common = intersectRects(a, b);
  if (!common) return false;
  return common.width * common.height * 3 >= Math.min(a.width * a.height, b.width * b.height);
}

async function runTesseract(pgm: Buffer, psm: Reading['psm'], signal: AbortSignal | undefined, path: string | undefined): Promise<string> {
  try {
    const output = await runTool('tesseract', ['stdin', 'stdout', '--psm', String(psm), '-l', 'eng', 'tsv'], {
      input: pgm,
      signal,
      timeoutMs: OCR_TIMEOUT_MS,
      env: { OMP_THREAD_LIMIT: '1', ...(path !== undefined ? { PATH: path } : {}) },
    });
    return output.toString('utf8');
  } catch (error) {
    if (error instanceof DesktopError && error.code === 'unavailable') {
      throw new DesktopError('unavailable', NO_TESSERACT);
    }
    throw error;
  }
}

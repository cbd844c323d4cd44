import { DesktopError } from '../desktopError';
import { NO_TESSERACT } from '../installedPrograms';
import type { OcrWord } from '../desktop';
import { intersectRects, type Rect } from '../geometry';
import { grayscalePgm, ocrEnlargement } from '../raster/ocrBitmap';
import type { RgbaImage } from '../raster/rgbaImage';
import type { ScreenshotSpace } from '../screenshotSpace';
import { runTool } from '../toolProcess';
import { parseTesseractTsv } from './tesseractTsv';

const OCR_TIMEOUT_MS = 60_000;
/** Up to this many pixels (a 500×400 dialog) a capture is read three times, differently. */
const SECOND_READING_UP_TO_PIXELS = 200_000;

interface Reading {
  factor: number;
  border: number;
}

/**
 * Reads the text of `image` (the capture of `capturedArea`, in screen pixels) with the
 * Tesseract CLI and returns the words with boxes in `space`, the image space the model sees.
 *
 * Tesseract is erratic on small dialogs in bitmap fonts. On xmessage's "Build failed" dialog
 * (three renderings: 104×52, 133×68, and 135×93 in an openbox frame) 2× read "Build failed
 * Cancel" from the first and nothing from the others; 2× inside a white 10 px margin read the
 * second, 3× with the margin the third; no one reading read all three. A small capture is
 * therefore read all three ways, and each reading adds the words the earlier ones did not
 * find (no overlapping box). Page segmentation mode 3 (automatic) read best of 3, 6 and 11.
 */
export async function recognizeText(image: RgbaImage, capturedArea: Rect, space: ScreenshotSpace, signal?: AbortSignal, path?: string): Promise<OcrWord[]> {
  if (image.width === 0 || image.height === 0) return [];
  const small = image.width * image.height <= SECOND_READING_UP_TO_PIXELS;
  const readings: Reading[] = small
    ? [
        { factor: 2, border: 0 },
        { factor: 2, border: 10 },
        { factor: 3, border: 10 },
      ]
    : [{ factor: ocrEnlargement(image.width, image.height), border: 0 }];
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

async function readOnce(image: RgbaImage, capturedArea: Rect, space: ScreenshotSpace, { factor, border }: Reading, signal: AbortSignal | undefined, path: string | undefined): Promise<OcrWord[]> {
  const tsv = await runTesseract(grayscalePgm(image, factor, border), signal, path);
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

async function runTesseract(pgm: Buffer, signal: AbortSignal | undefined, path: string | undefined): Promise<string> {
  try {
    const output = await runTool('tesseract', ['stdin', 'stdout', '--psm', '3', '-l', 'eng', 'tsv'], {
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

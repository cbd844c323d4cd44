import { DesktopError } from '../desktopError';
import type { OcrWord } from '../desktop';
import type { Rect } from '../geometry';
import { grayscalePgm, ocrEnlargement } from '../raster/ocrBitmap';
import type { RgbaImage } from '../raster/rgbaImage';
import type { ScreenshotSpace } from '../screenshotSpace';
import { runTool } from '../toolProcess';
import { parseTesseractTsv } from './tesseractTsv';

const OCR_TIMEOUT_MS = 60_000;

/**
 * Reads the text of `image` (the capture of `capturedArea`, in screen pixels) with the
 * Tesseract CLI and returns the words with boxes in `space`, the image space the model sees.
 * Page segmentation mode 3 (automatic) reads dialogs and buttons best of the modes tried.
 */
export async function recognizeText(image: RgbaImage, capturedArea: Rect, space: ScreenshotSpace): Promise<OcrWord[]> {
  if (image.width === 0 || image.height === 0) return [];
  const factor = ocrEnlargement(image.width, image.height);
  const tsv = await runTesseract(grayscalePgm(image, factor));
  return parseTesseractTsv(tsv).map((word) => ({
    text: word.text,
    confidence: Math.round(word.confidence),
    line: word.line,
    box: space.rectToImage({
      x: capturedArea.x + word.box.x / factor,
      y: capturedArea.y + word.box.y / factor,
      width: word.box.width / factor,
      height: word.box.height / factor,
    }),
  }));
}

async function runTesseract(pgm: Buffer): Promise<string> {
  try {
    const output = await runTool('tesseract', ['stdin', 'stdout', '--psm', '3', '-l', 'eng', 'tsv'], {
      input: pgm,
      timeoutMs: OCR_TIMEOUT_MS,
      env: { OMP_THREAD_LIMIT: '1' },
    });
    return output.toString('utf8');
  } catch (error) {
    if (error instanceof DesktopError && error.code === 'unavailable') {
      throw new DesktopError('unavailable', 'reading text on screen needs Tesseract: install the tesseract-ocr and tesseract-ocr-eng packages');
    }
    throw error;
  }
}

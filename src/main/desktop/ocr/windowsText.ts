import type { OcrWord, WindowInfo } from '../desktop';
import { intersectRects, rectContains, relativeTo, type Rect } from '../geometry';
import { cropImage, type RgbaImage } from '../raster/rgbaImage';
import type { ScreenshotSpace } from '../screenshotSpace';
import { recognizeText } from './tesseractOcr';

/**
 * The text of a capture of `area`, read window by window: Tesseract's page layout analysis
 * loses a small dialog on a large dark screen (it found nothing of xmessage's "Build
 * failed" on a black 1920×1080 root), while the same dialog read on its own is read well.
 * Each visible window is read within the capture, top of the stack first; a word whose
 * centre a higher window covers is dropped. Without windows the whole capture is read.
 */
export async function readWindowsText(image: RgbaImage, area: Rect, space: ScreenshotSpace, windows: readonly WindowInfo[], signal?: AbortSignal, path?: string): Promise<OcrWord[]> {
  const readable = windows.filter((window) => window.visible && !window.excluded && intersectRects(window.frame, area));
  if (readable.length === 0) return recognizeText(image, area, space, signal, path);
  const words: OcrWord[] = [];
  let lineOffset = 0;
  const above: Rect[] = [];
  for (const window of [...readable].reverse()) {
    const part = intersectRects(window.frame, area)!;
    const found = await recognizeText(cropImage(image, relativeTo(part, area)), part, space, signal, path);
    const visible = found.filter((word) => {
      const centre = space.toScreen({ x: word.box.x + word.box.width / 2, y: word.box.y + word.box.height / 2 });
      return !above.some((rect) => rectContains(rect, centre));
    });
    words.push(...visible.map((word) => ({ ...word, line: word.line + lineOffset })));
    lineOffset += Math.max(0, ...found.map((word) => word.line + 1));
    above.push(window.frame);
  }
  return words;
}

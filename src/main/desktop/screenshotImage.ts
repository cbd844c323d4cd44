import type { WindowInfo } from './desktop';
import { intersectRects, relativeTo, type Rect } from './geometry';
import { areaDownscale } from './raster/areaDownscale';
import { encodePng } from './raster/pngEncoding';
import { blackOut, type RgbaImage } from './raster/rgbaImage';
import type { ScreenshotSpace } from './screenshotSpace';

/**
 * Blacks out, in a capture of `area`, every visible excluded window that overlaps it (its
 * whole frame, title bar included), and returns their titles.
 */
export function blackOutWindows(image: RgbaImage, area: Rect, windows: readonly WindowInfo[]): string[] {
  const titles = new Set<string>();
  for (const window of windows) {
    if (!window.excluded || !window.visible) continue;
    const overlap = intersectRects(window.frame, area);
    if (!overlap) continue;
    blackOut(image, relativeTo(overlap, area));
    titles.add(window.title || window.application);
  }
  return [...titles];
}

/** The image the model gets: the capture scaled to the space's size, as PNG. */
export function encodeScreenshot(image: RgbaImage, space: ScreenshotSpace): Buffer {
  return encodePng(areaDownscale(image, space.imageWidth, space.imageHeight));
}

import type { WindowInfo } from './desktop';
import { intersectRects, relativeTo, type Rect } from './geometry';
import { destinationSpan } from './raster/areaDownscale';
import { blackOut, type RgbaImage } from './raster/rgbaImage';

/**
 * Blacks out, in an image of `area` (at its size, or scaled down from it), every visible
 * excluded window that overlaps it (its whole frame, title bar included), and returns how many
 * windows it blacked out. In a scaled image every pixel that took anything from the frame is painted, so
 * nothing of the window shows and a black-out never needs the full-size pixels.
 */
export function blackOutWindows(image: RgbaImage, area: Rect, windows: readonly WindowInfo[]): number {
  const ids = new Set<string>();
  for (const window of windows) {
    if (!window.excluded || !window.visible) continue;
    const overlap = intersectRects(window.frame, area);
    if (!overlap) continue;
    const frame = relativeTo(overlap, area);
    const columns = destinationSpan(area.width, image.width, frame.x, frame.x + frame.width);
    const rows = destinationSpan(area.height, image.height, frame.y, frame.y + frame.height);
    if (columns && rows) blackOut(image, { x: columns.from, y: rows.from, width: columns.to - columns.from, height: rows.to - rows.from });
    ids.add(window.id);
  }
  return ids.size;
}

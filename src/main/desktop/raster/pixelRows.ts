import { intersectRects, type Rect } from '../geometry';
import type { RgbaImage } from './rgbaImage';

/**
 * Pixels of four bytes each, read in place from rows laid out by someone else (an RgbaImage,
 * the rows of an XWD dump): where the first row starts, how many bytes apart rows are, and at
 * which byte of a pixel each channel sits. Cropping moves the start; nothing is copied.
 */
export interface PixelRows {
  width: number;
  height: number;
  data: Uint8Array;
  start: number;
  stride: number;
  red: number;
  green: number;
  blue: number;
}

export function rowsOf(image: RgbaImage): PixelRows {
  return { width: image.width, height: image.height, data: image.data, start: 0, stride: image.width * 4, red: 0, green: 1, blue: 2 };
}

/** The part of `rows` inside `rect` (clipped to them), as a view of the same bytes. */
export function cropRows(rows: PixelRows, rect: Rect): PixelRows {
  const area = intersectRects(rect, { x: 0, y: 0, width: rows.width, height: rows.height });
  if (!area) return { ...rows, width: 0, height: 0 };
  return { ...rows, width: area.width, height: area.height, start: rows.start + area.y * rows.stride + area.x * 4 };
}

import { intersectRects, type Rect } from '../geometry';

/** Pixels as 8-bit RGBA rows, top to bottom (alpha is ignored: screens are opaque). */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array;
}

export function cropImage(image: RgbaImage, rect: Rect): RgbaImage {
  const area = intersectRects(rect, { x: 0, y: 0, width: image.width, height: image.height });
  if (!area) return { width: 0, height: 0, data: new Uint8Array(0) };
  if (area.width === image.width && area.height === image.height) return image;
  const data = new Uint8Array(area.width * area.height * 4);
  const rowBytes = area.width * 4;
  for (let row = 0; row < area.height; row++) {
    const from = ((area.y + row) * image.width + area.x) * 4;
    data.set(image.data.subarray(from, from + rowBytes), row * rowBytes);
  }
  return { width: area.width, height: area.height, data };
}

/** Paints `rect` (clipped to the image) opaque black, in place. */
export function blackOut(image: RgbaImage, rect: Rect): void {
  const area = intersectRects(rect, { x: 0, y: 0, width: image.width, height: image.height });
  if (!area) return;
  for (let row = area.y; row < area.y + area.height; row++) {
    const start = (row * image.width + area.x) * 4;
    image.data.fill(0, start, start + area.width * 4);
    for (let i = start + 3; i < start + area.width * 4; i += 4) image.data[i] = 255;
  }
}

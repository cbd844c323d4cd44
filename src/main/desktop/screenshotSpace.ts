import { DesktopError } from './desktopError';
import type { Point, Rect } from './geometry';

/** The long side of every image sent to a model, in pixels. */
export const MAX_IMAGE_LONG_SIDE = 1280;

/** How far outside the image (in image pixels) a point may be and still be taken as its edge. */
const EDGE_TOLERANCE = 1;

/**
 * Where a space's screen coordinates live: `desktop` — the X root window (the whole
 * desktop); `tandem` — the content of Tandem's own window, in DIPs (what Electron's
 * sendInputEvent takes). A UI action goes to the surface of the screenshot it refers to.
 */
export type Surface = 'desktop' | 'tandem';

/**
 * The one coordinate space the model works in: the pixels of the screenshot it saw. A
 * capture of `source` (a rectangle in real screen pixels: a whole screen, a window, a
 * region) is scaled to `imageWidth × imageHeight`, never up. `toScreen` turns a point the
 * model names in that image into the screen pixel it covers; `toImage` is the inverse.
 *
 * Image pixel i covers source pixels [i/s, (i+1)/s); a point maps through pixel centres, so
 * toImage(toScreen(p)) === p for every pixel p of the image, and toScreen always lands inside
 * `source`.
 */
export class ScreenshotSpace {
  readonly scaleX: number;
  readonly scaleY: number;

  private constructor(
    readonly source: Rect,
    readonly imageWidth: number,
    readonly imageHeight: number,
    readonly surface: Surface,
  ) {
    this.scaleX = imageWidth / source.width;
    this.scaleY = imageHeight / source.height;
  }

  /** The space of a capture of `source`, scaled so its long side is at most `maxLongSide`. */
  static forCapture(source: Rect, surface: Surface = 'desktop', maxLongSide = MAX_IMAGE_LONG_SIDE): ScreenshotSpace {
    const width = Math.round(source.width);
    const height = Math.round(source.height);
    if (width < 1 || height < 1) throw new DesktopError('invalid', `cannot capture an empty area (${width}×${height})`);
    const longSide = Math.max(width, height);
    const factor = longSide > maxLongSide ? maxLongSide / longSide : 1;
    const imageWidth = Math.max(1, Math.round(width * factor));
    const imageHeight = Math.max(1, Math.round(height * factor));
    return new ScreenshotSpace({ x: Math.round(source.x), y: Math.round(source.y), width, height }, imageWidth, imageHeight, surface);
  }

  /** Image pixels per screen pixel along the long side (1 when the capture was not scaled). */
  get scale(): number {
    return this.source.width >= this.source.height ? this.scaleX : this.scaleY;
  }

  get scaled(): boolean {
    return this.imageWidth !== this.source.width || this.imageHeight !== this.source.height;
  }

  /**
   * The screen pixel under image point `point`. A point up to one pixel beyond the image's
   * edge counts as the edge (models name 1280 for the right edge of a 1280-wide image);
   * anything further is refused, never clamped onto something the model did not see.
   */
  toScreen(point: Point): Point {
    const x = this.imagePixel(point.x, this.imageWidth, 'x', point);
    const y = this.imagePixel(point.y, this.imageHeight, 'y', point);
    return {
      x: this.source.x + sourcePixel(x, this.scaleX, this.source.width),
      y: this.source.y + sourcePixel(y, this.scaleY, this.source.height),
    };
  }

  /** The image pixel showing screen point `point`, clamped to the image's edge. */
  toImage(point: Point): Point {
    return {
      x: clamp(Math.round((point.x - this.source.x + 0.5) * this.scaleX - 0.5), 0, this.imageWidth - 1),
      y: clamp(Math.round((point.y - this.source.y + 0.5) * this.scaleY - 0.5), 0, this.imageHeight - 1),
    };
  }

  /** A screen rectangle in image pixels (clipped to the image), e.g. an OCR word's box. */
  rectToImage(rect: Rect): Rect {
    const left = clamp(Math.floor((rect.x - this.source.x) * this.scaleX), 0, this.imageWidth);
    const top = clamp(Math.floor((rect.y - this.source.y) * this.scaleY), 0, this.imageHeight);
    const right = clamp(Math.ceil((rect.x + rect.width - this.source.x) * this.scaleX), 0, this.imageWidth);
    const bottom = clamp(Math.ceil((rect.y + rect.height - this.source.y) * this.scaleY), 0, this.imageHeight);
    return { x: left, y: top, width: right - left, height: bottom - top };
  }

  /** An image rectangle (e.g. an OCR word's box) in screen pixels: the area its pixels cover. */
  rectToScreen(rect: Rect): Rect {
    const left = this.source.x + rect.x / this.scaleX;
    const top = this.source.y + rect.y / this.scaleY;
    return { x: left, y: top, width: rect.width / this.scaleX, height: rect.height / this.scaleY };
  }

  describe(): string {
    const { source } = this;
    const where = `${source.width}×${source.height} screen pixels at ${source.x},${source.y}`;
    if (!this.scaled) return `${this.imageWidth}×${this.imageHeight} image of ${where} (not scaled)`;
    return `${this.imageWidth}×${this.imageHeight} image of ${where} (scale ${this.scale.toFixed(4)})`;
  }

  private imagePixel(value: number, size: number, axis: 'x' | 'y', point: Point): number {
    if (!Number.isFinite(value) || value < -EDGE_TOLERANCE || value > size - 1 + EDGE_TOLERANCE) {
      throw new DesktopError(
        'outside',
        `${axis}=${value} of the point ${point.x},${point.y} is outside the ${this.imageWidth}×${this.imageHeight} screenshot`,
      );
    }
    return clamp(Math.round(value), 0, size - 1);
  }
}

function sourcePixel(imagePixel: number, scale: number, sourceSize: number): number {
  return clamp(Math.round((imagePixel + 0.5) / scale - 0.5), 0, sourceSize - 1);
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

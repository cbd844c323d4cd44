import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DesktopError } from '../../../src/main/desktop/desktopError';
import { rectContains } from '../../../src/main/desktop/geometry';
import { MAX_IMAGE_LONG_SIDE, ScreenshotSpace } from '../../../src/main/desktop/screenshotSpace';

const sources = fc.record({
  x: fc.integer({ min: -4000, max: 8000 }),
  y: fc.integer({ min: -4000, max: 8000 }),
  width: fc.integer({ min: 1, max: 8000 }),
  height: fc.integer({ min: 1, max: 8000 }),
});

/** A space and a pixel of its image. */
const spaceWithPixel = sources.chain((source) => {
  const space = ScreenshotSpace.forCapture(source);
  return fc.record({
    space: fc.constant(space),
    pixel: fc.record({ x: fc.integer({ min: 0, max: space.imageWidth - 1 }), y: fc.integer({ min: 0, max: space.imageHeight - 1 }) }),
  });
});

describe('ScreenshotSpace', () => {
  it('scales a 1920×1080 screen to 1280×720 and maps the corners and centre', () => {
    const space = ScreenshotSpace.forCapture({ x: 0, y: 0, width: 1920, height: 1080 });
    expect([space.imageWidth, space.imageHeight, space.scale]).toEqual([1280, 720, 2 / 3]);
    expect(space.toScreen({ x: 0, y: 0 })).toEqual({ x: 0, y: 0 });
    expect(space.toScreen({ x: 1279, y: 719 })).toEqual({ x: 1919, y: 1079 });
    expect(space.toScreen({ x: 640, y: 360 })).toEqual({ x: 960, y: 540 });
  });

  it('keeps a small capture at its size and offsets a window capture by its origin', () => {
    const space = ScreenshotSpace.forCapture({ x: 700, y: 500, width: 104, height: 52 });
    expect([space.imageWidth, space.imageHeight, space.scaled]).toEqual([104, 52, false]);
    expect(space.toScreen({ x: 10, y: 20 })).toEqual({ x: 710, y: 520 });
    expect(space.toImage({ x: 710, y: 520 })).toEqual({ x: 10, y: 20 });
  });

  it('never makes an image whose long side exceeds the limit, and keeps the aspect within a pixel', () => {
    fc.assert(
      fc.property(sources, (source) => {
        const space = ScreenshotSpace.forCapture(source);
        expect(Math.max(space.imageWidth, space.imageHeight)).toBeLessThanOrEqual(Math.max(MAX_IMAGE_LONG_SIDE, 1));
        expect(space.imageWidth).toBeLessThanOrEqual(source.width);
        expect(space.imageHeight).toBeLessThanOrEqual(source.height);
        const long = Math.max(source.width, source.height);
        const factor = long > MAX_IMAGE_LONG_SIDE ? MAX_IMAGE_LONG_SIDE / long : 1;
        expect(Math.abs(space.imageWidth - source.width * factor)).toBeLessThanOrEqual(1);
        expect(Math.abs(space.imageHeight - source.height * factor)).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('round-trips every image pixel: toImage(toScreen(p)) is p, and toScreen lands inside the capture', () => {
    fc.assert(
      fc.property(spaceWithPixel, ({ space, pixel }) => {
        const onScreen = space.toScreen(pixel);
        expect(rectContains(space.source, onScreen)).toBe(true);
        expect(space.toImage(onScreen)).toEqual(pixel);
      }),
    );
  });

  it('maps a screen point into the image pixel whose screen span holds it', () => {
    fc.assert(
      fc.property(
        sources.chain((source) =>
          fc.record({
            space: fc.constant(ScreenshotSpace.forCapture(source)),
            point: fc.record({
              x: fc.integer({ min: source.x, max: source.x + source.width - 1 }),
              y: fc.integer({ min: source.y, max: source.y + source.height - 1 }),
            }),
          }),
        ),
        ({ space, point }) => {
          const pixel = space.toImage(point);
          const back = space.toScreen(pixel);
          // The pixel's centre is within one image pixel's span of the point.
          expect(Math.abs(back.x - point.x)).toBeLessThanOrEqual(1 / space.scaleX);
          expect(Math.abs(back.y - point.y)).toBeLessThanOrEqual(1 / space.scaleY);
        },
      ),
    );
  });

  it('takes a point up to one pixel past the edge as the edge, and refuses anything further', () => {
    fc.assert(
      fc.property(spaceWithPixel, fc.double({ min: 0, max: 1, noNaN: true }), ({ space }, over) => {
        const lastX = space.imageWidth - 1;
        const lastY = space.imageHeight - 1;
        expect(space.toScreen({ x: lastX + over, y: 0 })).toEqual(space.toScreen({ x: lastX, y: 0 }));
        expect(space.toScreen({ x: -over, y: lastY + over })).toEqual(space.toScreen({ x: 0, y: lastY }));
      }),
    );
    const space = ScreenshotSpace.forCapture({ x: 0, y: 0, width: 1920, height: 1080 });
    for (const point of [{ x: 1281.5, y: 10 }, { x: 10, y: -2 }, { x: Number.NaN, y: 0 }, { x: 5000, y: 5000 }]) {
      expect(() => space.toScreen(point)).toThrow(DesktopError);
    }
    expect(() => space.toScreen({ x: 1280, y: 720 })).not.toThrow();
  });

  it('clamps screen points outside the capture to the image edge', () => {
    const space = ScreenshotSpace.forCapture({ x: 100, y: 100, width: 1920, height: 1080 });
    expect(space.toImage({ x: -50, y: 5000 })).toEqual({ x: 0, y: 719 });
  });

  it('maps a screen rectangle to the image pixels that show it', () => {
    fc.assert(
      fc.property(
        spaceWithPixel,
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: 0, max: 200 }),
        ({ space, pixel }, width, height) => {
          const onScreen = space.toScreen(pixel);
          const box = space.rectToImage({ x: onScreen.x, y: onScreen.y, width: width + 1, height: height + 1 });
          expect(rectContains(box, pixel)).toBe(true);
          expect(box.x + box.width).toBeLessThanOrEqual(space.imageWidth);
          expect(box.y + box.height).toBeLessThanOrEqual(space.imageHeight);
        },
      ),
    );
  });

  it('refuses an empty capture', () => {
    expect(() => ScreenshotSpace.forCapture({ x: 0, y: 0, width: 0, height: 10 })).toThrow(/empty/);
  });
});

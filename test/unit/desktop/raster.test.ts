import fc from 'fast-check';
import { decodePng } from '../../support/desktop/pngDecoding';
import { describe, expect, it } from 'vitest';
import { areaDownscale, destinationSpan } from '../../../src/main/desktop/raster/areaDownscale';
import { grayscalePgm, ocrEnlargement } from '../../../src/main/desktop/raster/ocrBitmap';
import { encodePng } from '../../../src/main/desktop/raster/pngEncoding';
import { blackOut, cropImage, type RgbaImage } from '../../../src/main/desktop/raster/rgbaImage';
import { cropRows } from '../../../src/main/desktop/raster/pixelRows';
import { decodeXwd, xwdPixelRows } from '../../../src/main/desktop/raster/xwdDecoding';

function image(width: number, height: number, pixel: (x: number, y: number) => [number, number, number]): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set([...pixel(x, y), 255], (y * width + x) * 4);
  return { width, height, data };
}

function pixelAt(img: { width: number; data: Uint8Array | Buffer }, x: number, y: number): number[] {
  const i = (y * img.width + x) * 4;
  return [img.data[i]!, img.data[i + 1]!, img.data[i + 2]!];
}

/** An XWD dump as xwd writes it: big-endian header, `colors` colour entries, then pixel rows. */
function xwd(width: number, height: number, bitsPerPixel: 16 | 24 | 32, littleEndian: boolean, masks: [number, number, number], pixels: number[]): Uint8Array {
  const name = Buffer.from('xwdump\0');
  const headerSize = 100 + name.length;
  const colors = 2;
  const bytesPerLine = Math.ceil((width * bitsPerPixel) / 32) * 4;
  const dump = Buffer.alloc(headerSize + colors * 12 + bytesPerLine * height);
  const fields = [headerSize, 7, 2, 24, width, height, 0, littleEndian ? 0 : 1, 32, 0, 32, bitsPerPixel, bytesPerLine, 4, ...masks, 8, 256, colors, width, height, 0, 0, 0];
  fields.forEach((value, index) => dump.writeUInt32BE(value, index * 4));
  name.copy(dump, 100);
  const start = headerSize + colors * 12;
  pixels.forEach((value, index) => {
    const at = start + Math.floor(index / width) * bytesPerLine + (index % width) * (bitsPerPixel / 8);
    const bytes = bitsPerPixel / 8;
    if (littleEndian) dump.writeUIntLE(value, at, bytes);
    else dump.writeUIntBE(value, at, bytes);
  });
  return dump;
}

describe('XWD decoding', () => {
  it('decodes the common 32-bit little-endian 8-8-8 layout, row padding included', () => {
    const decoded = decodeXwd(xwd(3, 2, 32, true, [0xff0000, 0xff00, 0xff], [0xff0000, 0x00ff00, 0x0000ff, 0x123456, 0, 0xffffff]));
    expect([decoded.width, decoded.height]).toEqual([3, 2]);
    expect([pixelAt(decoded, 0, 0), pixelAt(decoded, 1, 0), pixelAt(decoded, 2, 0), pixelAt(decoded, 0, 1)]).toEqual([
      [255, 0, 0],
      [0, 255, 0],
      [0, 0, 255],
      [0x12, 0x34, 0x56],
    ]);
  });

  it('decodes 16-bit 5-6-5 big-endian and 24-bit pixels through their masks', () => {
    const sixteen = decodeXwd(xwd(2, 1, 16, false, [0xf800, 0x07e0, 0x001f], [0xf800, 0x07ff]));
    expect([pixelAt(sixteen, 0, 0), pixelAt(sixteen, 1, 0)]).toEqual([
      [255, 0, 0],
      [0, 255, 255],
    ]);
    const twentyFour = decodeXwd(xwd(2, 1, 24, true, [0xff0000, 0xff00, 0xff], [0x102030, 0xa0b0c0]));
    expect(pixelAt(twentyFour, 1, 0)).toEqual([0xa0, 0xb0, 0xc0]);
  });

  it('reads 32-bit rows in place (either byte order) and scales them exactly as the decoded image', () => {
    const pixels = Array.from({ length: 6 * 4 }, (_, i) => (i * 0x2f1d3b) & 0xffffff);
    for (const littleEndian of [true, false]) {
      const dump = xwd(6, 4, 32, littleEndian, [0xff0000, 0xff00, 0xff], pixels);
      const rows = xwdPixelRows(dump);
      expect(rows.data).toBe(dump);
      const area = { x: 1, y: 1, width: 5, height: 3 };
      expect(areaDownscale(cropRows(rows, area), 3, 2)).toEqual(areaDownscale(cropImage(decodeXwd(dump), area), 3, 2));
    }
    const sixteen = xwd(2, 1, 16, false, [0xf800, 0x07e0, 0x001f], [0xf800, 0x07ff]);
    expect(areaDownscale(xwdPixelRows(sixteen), 2, 1)).toEqual(decodeXwd(sixteen));
  });

  it('refuses truncated dumps and palette visuals with a reason', () => {
    const whole = xwd(4, 4, 32, true, [0xff0000, 0xff00, 0xff], new Array(16).fill(0));
    expect(() => decodeXwd(whole.subarray(0, whole.length - 10))).toThrow(/truncated/);
    const palette = Buffer.from(whole);
    palette.writeUInt32BE(3, 13 * 4);
    expect(() => decodeXwd(palette)).toThrow(/visual class 3/);
  });
});

describe('area downscale', () => {
  it('averages the source pixels each destination pixel covers', () => {
    const checker = image(4, 2, (x) => (x % 2 === 0 ? [0, 0, 0] : [200, 100, 50]));
    const half = areaDownscale(checker, 2, 1);
    expect([pixelAt(half, 0, 0), pixelAt(half, 1, 0)]).toEqual([
      [100, 50, 25],
      [100, 50, 25],
    ]);
  });

  it('keeps a uniform colour uniform at any size, and never enlarges', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 1, max: 60 }), fc.integer({ min: 1, max: 60 }), fc.integer({ min: 1, max: 60 }), (w, h, tw, th) => {
        const source = image(Math.max(w, tw), Math.max(h, th), () => [17, 130, 250]);
        const scaled = areaDownscale(source, tw, th);
        expect([scaled.width, scaled.height]).toEqual([tw, th]);
        for (let y = 0; y < th; y++) for (let x = 0; x < tw; x++) expect(pixelAt(scaled, x, y)).toEqual([17, 130, 250]);
      }),
      { numRuns: 50 },
    );
    expect(() => areaDownscale(image(2, 2, () => [0, 0, 0]), 3, 2)).toThrow(/only shrinks/);
  });

  it('names every destination pixel that takes anything from a source span (a black-out after scaling hides it all)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 80 }), fc.integer({ min: 1, max: 80 }), fc.nat(), fc.nat(), (size, target, a, b) => {
        const [sourceSize, targetSize] = [Math.max(size, target), Math.min(size, target)];
        const from = a % sourceSize;
        const to = from + 1 + (b % (sourceSize - from));
        const marked = areaDownscale(image(sourceSize, 1, (x) => (x >= from && x < to ? [255, 255, 255] : [0, 0, 0])), targetSize, 1);
        const span = destinationSpan(sourceSize, targetSize, from, to)!;
        for (let x = 0; x < targetSize; x++) if (x < span.from || x >= span.to) expect(pixelAt(marked, x, 0)).toEqual([0, 0, 0]);
        expect(pixelAt(marked, span.from, 0)[0]).toBeGreaterThan(0);
        expect(pixelAt(marked, span.to - 1, 0)[0]).toBeGreaterThan(0);
      }),
      { numRuns: 200 },
    );
    expect(destinationSpan(1920, 1280, 300, 301)).toEqual({ from: 200, to: 201 });
    expect(destinationSpan(1920, 1280, 301, 302)).toEqual({ from: 200, to: 202 });
    expect(destinationSpan(10, 10, 3, 7)).toEqual({ from: 3, to: 7 });
  });
});

describe('PNG encoding', () => {
  it('writes a PNG that decodes to the same pixels', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 40 }), fc.integer(), (width, height, seed) => {
        const source = image(width, height, (x, y) => [(x * 37 + seed) & 255, (y * 91 + seed) & 255, (x * y + seed) & 255]);
        const decoded = decodePng(encodePng(source));
        expect([decoded.width, decoded.height]).toEqual([width, height]);
        for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) expect(pixelAt(decoded, x, y)).toEqual(pixelAt(source, x, y));
      }),
      { numRuns: 30 },
    );
  });
});

describe('crop and black-out', () => {
  it('crops to the overlap and paints a clipped rectangle black', () => {
    const source = image(10, 10, (x, y) => [x * 10, y * 10, 255]);
    const crop = cropImage(source, { x: 8, y: 8, width: 5, height: 5 });
    expect([crop.width, crop.height, ...pixelAt(crop, 1, 1)]).toEqual([2, 2, 90, 90, 255]);
    blackOut(source, { x: -3, y: 2, width: 5, height: 2 });
    expect([pixelAt(source, 0, 2), pixelAt(source, 1, 3), pixelAt(source, 2, 2), pixelAt(source, 0, 4)]).toEqual([
      [0, 0, 0],
      [0, 0, 0],
      [20, 20, 255],
      [0, 40, 255],
    ]);
  });
});

describe('OCR bitmap', () => {
  it('doubles small captures for Tesseract as grayscale PGM, and reads a large one as is', () => {
    expect(ocrEnlargement(1920, 1080)).toBe(2);
    expect(ocrEnlargement(3840, 2160)).toBe(1);
    const pgm = grayscalePgm(image(2, 1, (x) => (x === 0 ? [255, 255, 255] : [0, 0, 0])), 2);
    const header = 'P5\n4 2\n255\n';
    expect(pgm.subarray(0, header.length).toString()).toBe(header);
    expect([...pgm.subarray(header.length)]).toEqual([255, 255, 0, 0, 255, 255, 0, 0]);
  });
});

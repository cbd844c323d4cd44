import { rowsOf, type PixelRows } from './pixelRows';
import type { RgbaImage } from './rgbaImage';

/**
 * Shrinks an image (or rows read in place, such as an XWD dump's) to `width × height` by area
 * averaging (every source pixel counts with the share of it each destination pixel covers),
 * which keeps thin text legible where nearest-neighbour or bilinear sampling drops strokes.
 * Separable, one destination row at a time: the source rows it covers are summed into one
 * row of floats, which is then shrunk along x (no full-size intermediate image). Never
 * enlarges; always a new image, opaque.
 */
export function areaDownscale(image: RgbaImage | PixelRows, width: number, height: number): RgbaImage {
  const rows = 'stride' in image ? image : rowsOf(image);
  if (width > rows.width || height > rows.height || width < 1 || height < 1) {
    throw new Error(`areaDownscale only shrinks (${rows.width}×${rows.height} → ${width}×${height})`);
  }
  const columns = contributions(rows.width, width);
  const lines = contributions(rows.height, height);
  const { data: source, red, green, blue } = rows;
  const row = new Float32Array(rows.width * 3);
  const data = new Uint8Array(width * height * 4);
  let out = 0;
  for (let y = 0; y < height; y++) {
    // The source rows this destination row covers, weighted, summed into `row` (3 channels).
    const { first, weights } = lines[y]!;
    row.fill(0);
    for (let k = 0; k < weights.length; k++) {
      const w = weights[k]!;
      let at = rows.start + (first + k) * rows.stride;
      for (let x = 0, i = 0; x < rows.width; x++, at += 4, i += 3) {
        row[i] = row[i]! + source[at + red]! * w;
        row[i + 1] = row[i + 1]! + source[at + green]! * w;
        row[i + 2] = row[i + 2]! + source[at + blue]! * w;
      }
    }
    // That row shrunk along x.
    for (let x = 0; x < width; x++) {
      const { first: from, weights: shares } = columns[x]!;
      let r = 0.5;
      let g = 0.5;
      let b = 0.5;
      for (let k = 0, i = from * 3; k < shares.length; k++, i += 3) {
        const w = shares[k]!;
        r += row[i]! * w;
        g += row[i + 1]! * w;
        b += row[i + 2]! * w;
      }
      data[out++] = r;
      data[out++] = g;
      data[out++] = b;
      data[out++] = 255;
    }
  }
  return { width, height, data };
}

interface Contribution {
  first: number;
  weights: Float32Array;
}

/**
 * Along one axis, the destination pixels that average at least one source pixel of
 * [from, to): `{ from, to }` (end exclusive), undefined when none does. Painting them covers
 * everything a downscale took from that span (at the same size: exactly the span).
 */
export function destinationSpan(sourceSize: number, targetSize: number, from: number, to: number): { from: number; to: number } | undefined {
  let first = -1;
  let last = -1;
  for (let i = 0; i < targetSize; i++) {
    const covered = sourceRange(sourceSize, targetSize, i);
    if (covered.first < to && covered.last >= from) {
      if (first < 0) first = i;
      last = i;
    }
  }
  return first < 0 ? undefined : { from: first, to: last + 1 };
}

/** For each destination pixel along one axis: the source pixels it covers and their shares (summing to 1). */
function contributions(sourceSize: number, targetSize: number): Contribution[] {
  const result: Contribution[] = [];
  for (let i = 0; i < targetSize; i++) {
    const { start, end, span, first, last } = sourceRange(sourceSize, targetSize, i);
    const weights = new Float32Array(last - first + 1);
    for (let s = first; s <= last; s++) {
      weights[s - first] = (Math.min(end, s + 1) - Math.max(start, s)) / span;
    }
    result.push({ first, weights });
  }
  return result;
}

/**
 * The span [start, end) destination pixel `i` covers in the source, and the source pixels it
 * overlaps (first to last). Computed from integer products, so a pixel the span only touches
 * at its edge is never counted (i * span can land a hair past a whole number).
 */
function sourceRange(sourceSize: number, targetSize: number, i: number): { start: number; end: number; span: number; first: number; last: number } {
  const start = (i * sourceSize) / targetSize;
  const end = ((i + 1) * sourceSize) / targetSize;
  return { start, end, span: sourceSize / targetSize, first: Math.floor(start), last: Math.ceil(end) - 1 };
}

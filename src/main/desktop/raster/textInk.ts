import type { RgbaImage } from './rgbaImage';

/** One gray level per pixel, rows top to bottom. */
export interface GrayImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** A shape taller than this many times the typical one is not a letter (a stipple, an icon, a scroll bar). */
const TALLEST_GLYPH = 2.5;

export function grayLevels(image: RgbaImage): GrayImage {
  const data = new Uint8Array(image.width * image.height);
  for (let i = 0; i < data.length; i++) {
    const p = i * 4;
    data[i] = (image.data[p]! * 77 + image.data[p + 1]! * 150 + image.data[p + 2]! * 29) >> 8;
  }
  return { width: image.width, height: image.height, data };
}

/**
 * The text of a dialog as black ink on white paper, without what sits around the text:
 * Tesseract read neither "Ok" nor (sometimes) "Build failed" on xmessage's dialogs because a
 * button's rounded outline and a stippled box touch the letters' lines. Binarised at Otsu's
 * threshold (the less common side is ink, so light text on a dark window works too); then
 * every connected shape that encloses another (a button's outline, a frame around the
 * message) and every shape much taller than the typical one (a stipple, an icon) is erased.
 */
export function textInk(image: RgbaImage): GrayImage {
  const gray = grayLevels(image);
  const threshold = otsuThreshold(gray.data);
  let dark = 0;
  for (const level of gray.data) if (level <= threshold) dark++;
  const darkInk = dark * 2 <= gray.data.length;
  const ink = new Uint8Array(gray.data.length);
  for (let i = 0; i < ink.length; i++) ink[i] = (gray.data[i]! <= threshold) === darkInk ? 1 : 0;
  const { labels, shapes } = connectedShapes(ink, gray.width, gray.height);
  const erased = shapesAroundText(shapes);
  const data = new Uint8Array(ink.length).fill(255);
  for (let i = 0; i < ink.length; i++) if (ink[i] && !erased.has(labels[i]!)) data[i] = 0;
  return { width: gray.width, height: gray.height, data };
}

/** The gray level that best splits the histogram in two (Otsu, 1979). */
export function otsuThreshold(levels: Uint8Array): number {
  const histogram = new Float64Array(256);
  for (const level of levels) histogram[level]!++;
  let sum = 0;
  for (let level = 0; level < 256; level++) sum += level * histogram[level]!;
  let below = 0;
  let belowSum = 0;
  let best = -1;
  let threshold = 127;
  for (let level = 0; level < 256; level++) {
    below += histogram[level]!;
    if (below === 0) continue;
    const above = levels.length - below;
    if (above === 0) break;
    belowSum += level * histogram[level]!;
    const between = below * above * (belowSum / below - (sum - belowSum) / above) ** 2;
    if (between > best) {
      best = between;
      threshold = level;
    }
  }
  return threshold;
}

interface Shape {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** 8-connected shapes of ink: a label per pixel (-1 for paper) and each shape's bounding box. */
function connectedShapes(ink: Uint8Array, width: number, height: number): { labels: Int32Array; shapes: Shape[] } {
  const labels = new Int32Array(ink.length).fill(-1);
  const shapes: Shape[] = [];
  const stack = new Int32Array(ink.length);
  for (let start = 0; start < ink.length; start++) {
    if (!ink[start] || labels[start] !== -1) continue;
    const label = shapes.length;
    const shape = { left: width, top: height, right: -1, bottom: -1 };
    shapes.push(shape);
    let size = 0;
    stack[size++] = start;
    labels[start] = label;
    while (size > 0) {
      const pixel = stack[--size]!;
      const x = pixel % width;
      const y = (pixel - x) / width;
      shape.left = Math.min(shape.left, x);
      shape.right = Math.max(shape.right, x);
      shape.top = Math.min(shape.top, y);
      shape.bottom = Math.max(shape.bottom, y);
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= width) continue;
          const next = ny * width + nx;
          if (ink[next] && labels[next] === -1) {
            labels[next] = label;
            stack[size++] = next;
          }
        }
      }
    }
  }
  return { labels, shapes };
}

/** The labels of shapes that enclose another shape, or are far taller than the typical shape. */
function shapesAroundText(shapes: readonly Shape[]): Set<number> {
  const erased = new Set<number>();
  if (shapes.length === 0) return erased;
  const heights = shapes.map((shape) => shape.bottom - shape.top + 1).sort((a, b) => a - b);
  const typical = heights[Math.floor(heights.length / 2)]!;
  // By left edge, so a shape is compared only with those that start inside it (noise makes thousands of specks).
  const byLeft = shapes.map((_, label) => label).sort((a, b) => shapes[a]!.left - shapes[b]!.left);
  shapes.forEach((shape, label) => {
    if (shape.bottom - shape.top + 1 > TALLEST_GLYPH * typical) erased.add(label);
    else if (shape.right - shape.left >= 2 && shape.bottom - shape.top >= 2 && enclosesAnother(shape, shapes, byLeft)) erased.add(label);
  });
  return erased;
}

function enclosesAnother(outer: Shape, shapes: readonly Shape[], byLeft: readonly number[]): boolean {
  let low = 0;
  let high = byLeft.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (shapes[byLeft[middle]!]!.left <= outer.left) low = middle + 1;
    else high = middle;
  }
  for (let i = low; i < byLeft.length; i++) {
    const inner = shapes[byLeft[i]!]!;
    if (inner.left >= outer.right) return false;
    if (inner.right < outer.right && inner.top > outer.top && inner.bottom < outer.bottom) return true;
  }
  return false;
}

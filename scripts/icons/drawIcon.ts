/**
 * Tandem's app icon, drawn from a few shapes so every size is rendered from the same
 * geometry (no scaled bitmaps): a dark rounded tile, a shell prompt `>_` on the left and
 * the AI sidebar on the right. Coordinates are fractions of the icon's side, y downwards.
 */

/** The sizes of the committed set (assets/icons/NxN.png): hicolor's sizes up to 512. */
export const ICON_SIZES = [16, 24, 32, 48, 64, 128, 256, 512] as const;

type Rgba = readonly [number, number, number, number];
/** Signed distance from a point to a shape, in icon units: negative inside. */
type Distance = (x: number, y: number) => number;

interface Layer {
  distance: Distance;
  colour: (x: number, y: number) => Rgba;
  /** Drawn only at this many pixels or more (fine detail blurs into noise below). */
  minSize?: number;
}

function roundedRect(x0: number, y0: number, x1: number, y1: number, radius: number): Distance {
  const cx = (x0 + x1) / 2;
  const cy = (y0 + y1) / 2;
  const hx = (x1 - x0) / 2 - radius;
  const hy = (y1 - y0) / 2 - radius;
  return (x, y) => {
    const dx = Math.abs(x - cx) - hx;
    const dy = Math.abs(y - cy) - hy;
    return Math.hypot(Math.max(dx, 0), Math.max(dy, 0)) + Math.min(Math.max(dx, dy), 0) - radius;
  };
}

/** A line from a to b with round ends, `width` wide. */
function stroke(ax: number, ay: number, bx: number, by: number, width: number): Distance {
  return (x, y) => {
    const vx = bx - ax;
    const vy = by - ay;
    const t = Math.min(1, Math.max(0, ((x - ax) * vx + (y - ay) * vy) / (vx * vx + vy * vy)));
    return Math.hypot(x - ax - t * vx, y - ay - t * vy) - width / 2;
  };
}

function union(...shapes: Distance[]): Distance {
  return (x, y) => Math.min(...shapes.map((shape) => shape(x, y)));
}

function hex(value: string, alpha = 1): Rgba {
  const n = Number.parseInt(value.slice(1), 16);
  return [(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff, alpha];
}

const TOP = hex('#323a4f');
const BOTTOM = hex('#141821');
const INK = hex('#eef2f7');
const ACCENT = hex('#5eead4');

const LAYERS: Layer[] = [
  {
    // The tile: 1/16 margin all round, as freedesktop icons usually leave.
    distance: roundedRect(0.0625, 0.0625, 0.9375, 0.9375, 0.19),
    colour: (_x, y) => {
      const t = Math.min(1, Math.max(0, (y - 0.0625) / 0.875));
      return [0, 1, 2].map((i) => TOP[i]! + (BOTTOM[i]! - TOP[i]!) * t).concat(1) as unknown as Rgba;
    },
  },
  // The prompt: a chevron and an underscore cursor.
  { distance: union(stroke(0.2, 0.35, 0.355, 0.5, 0.085), stroke(0.355, 0.5, 0.2, 0.65, 0.085)), colour: () => INK },
  { distance: stroke(0.42, 0.645, 0.54, 0.645, 0.07), colour: () => ACCENT },
  // The AI sidebar: a tinted panel with lines of conversation.
  { distance: roundedRect(0.63, 0.2, 0.835, 0.8, 0.05), colour: () => hex('#5eead4', 0.2) },
  { distance: stroke(0.685, 0.33, 0.78, 0.33, 0.045), colour: () => ACCENT, minSize: 48 },
  { distance: stroke(0.685, 0.43, 0.75, 0.43, 0.045), colour: () => hex('#5eead4', 0.75), minSize: 48 },
  { distance: stroke(0.685, 0.53, 0.78, 0.53, 0.045), colour: () => hex('#5eead4', 0.75), minSize: 48 },
  { distance: stroke(0.685, 0.63, 0.74, 0.63, 0.045), colour: () => hex('#5eead4', 0.5), minSize: 48 },
];

/** The icon at `size`×`size` pixels as RGBA bytes, edges anti-aliased from the distances. */
export function drawIcon(size: number): Uint8Array {
  const pixels = new Uint8Array(size * size * 4);
  const pixel = 1 / size;
  const layers = LAYERS.filter((layer) => size >= (layer.minSize ?? 0));
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      const x = (px + 0.5) * pixel;
      const y = (py + 0.5) * pixel;
      // Premultiplied "over" compositing, back to front.
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (const layer of layers) {
        const coverage = Math.min(1, Math.max(0, 0.5 - layer.distance(x, y) / pixel));
        if (coverage === 0) continue;
        const [cr, cg, cb, ca] = layer.colour(x, y);
        const alpha = ca * coverage;
        r = cr * alpha + r * (1 - alpha);
        g = cg * alpha + g * (1 - alpha);
        b = cb * alpha + b * (1 - alpha);
        a = alpha + a * (1 - alpha);
      }
      const at = (py * size + px) * 4;
      pixels[at] = a > 0 ? Math.round(r / a) : 0;
      pixels[at + 1] = a > 0 ? Math.round(g / a) : 0;
      pixels[at + 2] = a > 0 ? Math.round(b / a) : 0;
      pixels[at + 3] = Math.round(a * 255);
    }
  }
  return pixels;
}

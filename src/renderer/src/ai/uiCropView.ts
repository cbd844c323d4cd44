import type { UiStepView } from '../../../shared/screenSteps';

/** The crop's size on the card, in CSS pixels. */
export const CROP_WIDTH = 280;
export const CROP_HEIGHT = 160;
/** Room kept around the marked points. */
const MARGIN = 24;
/** Room kept between the nearest edge of the window and the crop's edge. */
const EDGE_MARGIN = 10;

type Target = NonNullable<UiStepView['target']>;

export interface CropView {
  /** CSS pixels per image pixel. */
  scale: number;
  /** Where the image's top left corner sits in the crop. */
  offsetX: number;
  offsetY: number;
  /** The window's outline in the crop, when the step knows its window. */
  outline?: { left: number; top: number; width: number; height: number };
}

/**
 * How the screenshot sits in a UI action's crop: at its own size around the point (both ends
 * of a drag), shrunk only when a drag's ends do not fit — or when the point lies so deep
 * inside a large window that no edge of it would show (a click on a plain white page would
 * show only white): then zoomed out until the window's nearest edge is in view, and the
 * window's outline is drawn.
 */
export function cropView(target: Target): CropView {
  const points = target.to ? [target.at, target.to] : [target.at];
  const left = Math.min(...points.map((point) => point.x));
  const right = Math.max(...points.map((point) => point.x));
  const top = Math.min(...points.map((point) => point.y));
  const bottom = Math.max(...points.map((point) => point.y));
  let scale = Math.min(1, (CROP_WIDTH - 2 * MARGIN) / Math.max(1, right - left), (CROP_HEIGHT - 2 * MARGIN) / Math.max(1, bottom - top));
  const { frame } = target;
  if (frame) {
    // The nearest of the window's edges, from the marked points, in image pixels.
    const toSide = Math.max(1, Math.min(left - frame.x, frame.x + frame.width - right));
    const toTopOrBottom = Math.max(1, Math.min(top - frame.y, frame.y + frame.height - bottom));
    const edgeInView = Math.max((CROP_WIDTH / 2 - EDGE_MARGIN) / toSide, (CROP_HEIGHT / 2 - EDGE_MARGIN) / toTopOrBottom);
    const wholeImage = Math.min(CROP_WIDTH / target.width, CROP_HEIGHT / target.height);
    scale = Math.min(scale, Math.max(edgeInView, wholeImage));
  }
  const offsetX = clampOffset(CROP_WIDTH / 2 - ((left + right) / 2) * scale, target.width * scale, CROP_WIDTH);
  const offsetY = clampOffset(CROP_HEIGHT / 2 - ((top + bottom) / 2) * scale, target.height * scale, CROP_HEIGHT);
  const outline = frame ? { left: offsetX + frame.x * scale, top: offsetY + frame.y * scale, width: frame.width * scale, height: frame.height * scale } : undefined;
  return { scale, offsetX, offsetY, ...(outline ? { outline } : {}) };
}

/** Keeps the image covering the crop where it can (a point near an edge sits off-centre). */
function clampOffset(offset: number, imageSize: number, cropSize: number): number {
  if (imageSize <= cropSize) return (cropSize - imageSize) / 2;
  return Math.min(0, Math.max(cropSize - imageSize, offset));
}

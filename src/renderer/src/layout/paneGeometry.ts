import type { LayoutNode } from '../../../shared/protocol';
import { normalizedSizes } from './layoutTree';

export interface UnitRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export type FocusDirection = 'left' | 'right' | 'up' | 'down';

/** Each pane's rectangle in a unit square, from the split fractions. */
export function paneRects(node: LayoutNode, rect: UnitRect = { x: 0, y: 0, width: 1, height: 1 }): Map<number, UnitRect> {
  const rects = new Map<number, UnitRect>();
  collect(node, rect, rects);
  return rects;
}

function collect(node: LayoutNode, rect: UnitRect, into: Map<number, UnitRect>): void {
  if (node.kind === 'pane') {
    into.set(node.paneId, rect);
    return;
  }
  const sizes = normalizedSizes(node.sizes, node.children.length);
  const total = sizes.reduce((sum, size) => sum + size, 0);
  let offset = 0;
  node.children.forEach((child, index) => {
    const fraction = (sizes[index] ?? 1) / total;
    const childRect =
      node.direction === 'row'
        ? { x: rect.x + offset * rect.width, y: rect.y, width: fraction * rect.width, height: rect.height }
        : { x: rect.x, y: rect.y + offset * rect.height, width: rect.width, height: fraction * rect.height };
    offset += fraction;
    collect(child, childRect, into);
  });
}

const EPSILON = 1e-6;

/** The pane next to `paneId` in a direction: touching that edge, overlapping most, nearest. */
export function neighborPane(node: LayoutNode, paneId: number, direction: FocusDirection): number | undefined {
  const rects = paneRects(node);
  const from = rects.get(paneId);
  if (!from) return undefined;
  let best: { paneId: number; distance: number; overlap: number } | undefined;
  for (const [candidateId, rect] of rects) {
    if (candidateId === paneId) continue;
    const distance = gapInDirection(from, rect, direction);
    if (distance === undefined) continue;
    const overlap = perpendicularOverlap(from, rect, direction);
    if (overlap <= EPSILON) continue;
    if (
      !best ||
      distance < best.distance - EPSILON ||
      (Math.abs(distance - best.distance) <= EPSILON && overlap > best.overlap)
    ) {
      best = { paneId: candidateId, distance, overlap };
    }
  }
  return best?.paneId;
}

function gapInDirection(from: UnitRect, to: UnitRect, direction: FocusDirection): number | undefined {
  const gap =
    direction === 'left'
      ? from.x - (to.x + to.width)
      : direction === 'right'
        ? to.x - (from.x + from.width)
        : direction === 'up'
          ? from.y - (to.y + to.height)
          : to.y - (from.y + from.height);
  return gap >= -EPSILON ? Math.max(0, gap) : undefined;
}

function perpendicularOverlap(a: UnitRect, b: UnitRect, direction: FocusDirection): number {
  if (direction === 'left' || direction === 'right') {
    return Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  }
  return Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
}

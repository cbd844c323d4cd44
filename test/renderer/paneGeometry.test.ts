import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LayoutNode } from '../../src/shared/protocol';
import { paneLeaf, panesOf, splitLeaf, type SplitDirection } from '../../src/renderer/src/layout/layoutTree';
import { neighborPane, paneRects, type FocusDirection, type UnitRect } from '../../src/renderer/src/layout/paneGeometry';

const EPSILON = 1e-9;

function realisticSizes(tree: LayoutNode): boolean {
  return [...paneRects(tree).values()].every((rect) => rect.width >= 1e-4 && rect.height >= 1e-4);
}

/**
 * A random layout grown by splits (as the user makes them), with random divider positions.
 * Panes far thinner than the divider's minimum (48 px) cannot exist; focus moves need an
 * edge overlap above the geometry's epsilon, so such layouts are skipped where it matters.
 */
const layout: fc.Arbitrary<LayoutNode> = fc
  .array(fc.tuple(fc.nat(), fc.constantFrom<SplitDirection>('row', 'column'), fc.double({ min: 0.25, max: 4, noNaN: true })), { maxLength: 12 })
  .map((splits) => {
    let root: LayoutNode = paneLeaf(1);
    let nextId = 2;
    for (const [pick, direction, weight] of splits) {
      const panes = panesOf(root);
      root = splitLeaf(root, panes[pick % panes.length]!, direction, nextId++);
      if (root.kind === 'split') root = { ...root, sizes: root.sizes.map((size, index) => (index === 0 ? size * weight : size)) };
    }
    return root;
  });

function overlapArea(a: UnitRect, b: UnitRect): number {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return width > EPSILON && height > EPSILON ? width * height : 0;
}

describe('pane rectangles', () => {
  it('tile the unit square: inside it, no overlaps, areas add up to 1', () => {
    fc.assert(
      fc.property(layout, (root) => {
        const rects = [...paneRects(root).values()];
        expect(rects).toHaveLength(panesOf(root).length);
        let area = 0;
        rects.forEach((rect, index) => {
          expect(rect.x).toBeGreaterThanOrEqual(-EPSILON);
          expect(rect.y).toBeGreaterThanOrEqual(-EPSILON);
          expect(rect.x + rect.width).toBeLessThanOrEqual(1 + 1e-6);
          expect(rect.y + rect.height).toBeLessThanOrEqual(1 + 1e-6);
          area += rect.width * rect.height;
          for (const other of rects.slice(index + 1)) expect(overlapArea(rect, other)).toBe(0);
        });
        expect(area).toBeCloseTo(1, 6);
      }),
    );
  });

  it('follow the split fractions', () => {
    const root: LayoutNode = {
      kind: 'split',
      direction: 'row',
      sizes: [1, 3],
      children: [paneLeaf(1), { kind: 'split', direction: 'column', sizes: [1, 1], children: [paneLeaf(2), paneLeaf(3)] }],
    };
    const rects = paneRects(root);
    expect(rects.get(1)).toEqual({ x: 0, y: 0, width: 0.25, height: 1 });
    expect(rects.get(2)).toEqual({ x: 0.25, y: 0, width: 0.75, height: 0.5 });
    expect(rects.get(3)).toEqual({ x: 0.25, y: 0.5, width: 0.75, height: 0.5 });
  });
});

describe('neighborPane (Alt+Arrow focus)', () => {
  // ┌───┬───┐
  // │ 1 │ 2 │
  // │   ├───┤
  // │   │ 3 │
  // └───┴───┘
  const root: LayoutNode = {
    kind: 'split',
    direction: 'row',
    sizes: [1, 1],
    children: [paneLeaf(1), { kind: 'split', direction: 'column', sizes: [1, 1], children: [paneLeaf(2), paneLeaf(3)] }],
  };

  it('moves to the pane touching that edge', () => {
    expect(neighborPane(root, 2, 'down')).toBe(3);
    expect(neighborPane(root, 3, 'up')).toBe(2);
    expect(neighborPane(root, 2, 'left')).toBe(1);
    expect(neighborPane(root, 3, 'left')).toBe(1);
    expect(neighborPane(root, 1, 'left')).toBeUndefined();
    expect(neighborPane(root, 1, 'up')).toBeUndefined();
    expect(neighborPane(root, 42, 'up')).toBeUndefined();
  });

  it('prefers the neighbour overlapping most', () => {
    const skewed: LayoutNode = { ...root, children: [paneLeaf(1), { kind: 'split', direction: 'column', sizes: [1, 3], children: [paneLeaf(2), paneLeaf(3)] }] };
    expect(neighborPane(skewed, 1, 'right')).toBe(3);
    const other: LayoutNode = { ...root, children: [paneLeaf(1), { kind: 'split', direction: 'column', sizes: [3, 1], children: [paneLeaf(2), paneLeaf(3)] }] };
    expect(neighborPane(other, 1, 'right')).toBe(2);
  });

  it('always returns a different pane that lies in that direction and shares an edge span', () => {
    fc.assert(
      fc.property(layout, fc.nat(), fc.constantFrom<FocusDirection>('left', 'right', 'up', 'down'), (tree, pick, direction) => {
        fc.pre(realisticSizes(tree));
        const panes = panesOf(tree);
        const from = panes[pick % panes.length]!;
        const target = neighborPane(tree, from, direction);
        const rects = paneRects(tree);
        const a = rects.get(from)!;
        const atEdge =
          (direction === 'left' && a.x <= EPSILON) ||
          (direction === 'up' && a.y <= EPSILON) ||
          (direction === 'right' && a.x + a.width >= 1 - 1e-6) ||
          (direction === 'down' && a.y + a.height >= 1 - 1e-6);
        if (target === undefined) {
          expect(atEdge).toBe(true);
          return;
        }
        // Only panes at the window's edge have nowhere to go; everyone else finds a neighbour.
        expect(target).not.toBe(from);
        const b = rects.get(target)!;
        if (direction === 'left') expect(b.x + b.width).toBeLessThanOrEqual(a.x + 1e-6);
        if (direction === 'right') expect(b.x).toBeGreaterThanOrEqual(a.x + a.width - 1e-6);
        if (direction === 'up') expect(b.y + b.height).toBeLessThanOrEqual(a.y + 1e-6);
        if (direction === 'down') expect(b.y).toBeGreaterThanOrEqual(a.y + a.height - 1e-6);
      }),
    );
  });

  it('finds a neighbour for every pane not at that edge of the window', () => {
    fc.assert(
      fc.property(layout, fc.nat(), fc.constantFrom<FocusDirection>('left', 'right', 'up', 'down'), (tree, pick, direction) => {
        fc.pre(realisticSizes(tree));
        const panes = panesOf(tree);
        const from = panes[pick % panes.length]!;
        const a = paneRects(tree).get(from)!;
        const atEdge =
          (direction === 'left' && a.x <= 1e-6) ||
          (direction === 'up' && a.y <= 1e-6) ||
          (direction === 'right' && a.x + a.width >= 1 - 1e-6) ||
          (direction === 'down' && a.y + a.height >= 1 - 1e-6);
        if (!atEdge) expect(neighborPane(tree, from, direction)).toBeDefined();
      }),
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LayoutNode } from '../../src/shared/protocol';
import {
  containsPane,
  normalizedSizes,
  paneLeaf,
  panesOf,
  pruneLayout,
  removeLeaf,
  replaceLeaf,
  setSizesAt,
  splitLeaf,
  type SplitDirection,
} from '../../src/renderer/src/layout/layoutTree';

type Operation =
  | { kind: 'split'; target: number; direction: SplitDirection }
  | { kind: 'remove'; target: number }
  | { kind: 'replace'; target: number };

const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({ kind: fc.constant('split' as const), target: fc.nat(), direction: fc.constantFrom<SplitDirection>('row', 'column') }),
  fc.record({ kind: fc.constant('remove' as const), target: fc.nat() }),
  fc.record({ kind: fc.constant('replace' as const), target: fc.nat() }),
);

/** Replays operations the way the layout store uses them; pane ids are never reused. */
function replay(operations: Operation[]): { root: LayoutNode | undefined; expected: number[] } {
  let root: LayoutNode | undefined = paneLeaf(1);
  let expected = [1];
  let nextId = 2;
  for (const op of operations) {
    if (!root) break;
    const panes = panesOf(root);
    const target = panes[op.target % panes.length]!;
    if (op.kind === 'split') {
      const newId = nextId++;
      root = splitLeaf(root, target, op.direction, newId);
      expected = [...expected, newId];
    } else if (op.kind === 'remove') {
      root = removeLeaf(root, target);
      expected = expected.filter((id) => id !== target);
    } else {
      const newId = nextId++;
      root = replaceLeaf(root, target, newId);
      expected = expected.map((id) => (id === target ? newId : id));
    }
  }
  return { root, expected };
}

/** Structural rules every layout the store holds must follow. */
function checkWellFormed(node: LayoutNode): void {
  if (node.kind === 'pane') return;
  expect(node.children.length).toBeGreaterThanOrEqual(2);
  expect(node.children.length).toBeLessThanOrEqual(16);
  expect(node.sizes).toHaveLength(node.children.length);
  for (const size of node.sizes) expect(size).toBeGreaterThan(0);
  node.children.forEach(checkWellFormed);
}

describe('layout tree operations', () => {
  it('keep every pane exactly once and every split well formed', () => {
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 60 }), (operations) => {
        const { root, expected } = replay(operations);
        if (!root) {
          expect(expected).toEqual([]);
          return;
        }
        const panes = panesOf(root);
        expect(new Set(panes).size).toBe(panes.length);
        expect([...panes].sort((a, b) => a - b)).toEqual([...expected].sort((a, b) => a - b));
        for (const id of expected) expect(containsPane(root, id)).toBe(true);
        checkWellFormed(root);
      }),
      { numRuns: 300 },
    );
  });

  it('splitting puts the new pane right after the split one, in reading order', () => {
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 30 }), fc.nat(), fc.constantFrom<SplitDirection>('row', 'column'), (operations, pick, direction) => {
        const { root } = replay(operations);
        if (!root) return;
        const before = panesOf(root);
        const target = before[pick % before.length]!;
        const after = panesOf(splitLeaf(root, target, direction, 10_000));
        const index = before.indexOf(target);
        expect(after).toEqual([...before.slice(0, index + 1), 10_000, ...before.slice(index + 1)]);
      }),
    );
  });

  it('removing every pane leaves nothing, one at a time, in any order', () => {
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 30 }), fc.infiniteStream(fc.nat()), (operations, picks) => {
        let { root } = replay(operations);
        const iterator = picks[Symbol.iterator]();
        while (root) {
          const panes = panesOf(root);
          const target = panes[iterator.next().value % panes.length]!;
          const next = removeLeaf(root, target);
          if (next) {
            expect(panesOf(next)).toEqual(panes.filter((id) => id !== target));
            checkWellFormed(next);
          } else {
            expect(panes).toEqual([target]);
          }
          root = next;
        }
      }),
    );
  });

  it('repeated splits in the same direction add siblings instead of nesting, halving the share', () => {
    let root = splitLeaf(paneLeaf(1), 1, 'row', 2);
    root = splitLeaf(root, 2, 'row', 3);
    expect(root).toEqual({
      kind: 'split',
      direction: 'row',
      sizes: [1, 0.5, 0.5],
      children: [paneLeaf(1), paneLeaf(2), paneLeaf(3)],
    });
    // A split across the parent's direction nests.
    root = splitLeaf(root, 3, 'column', 4);
    expect(root.kind === 'split' && root.children[2]).toEqual({
      kind: 'split',
      direction: 'column',
      sizes: [1, 1],
      children: [paneLeaf(3), paneLeaf(4)],
    });
  });

  it('removing a pane from a split of two collapses it into the sibling, keeping the other sizes', () => {
    const root: LayoutNode = {
      kind: 'split',
      direction: 'row',
      sizes: [3, 1],
      children: [paneLeaf(1), { kind: 'split', direction: 'column', sizes: [2, 5], children: [paneLeaf(2), paneLeaf(3)] }],
    };
    expect(removeLeaf(root, 2)).toEqual({ kind: 'split', direction: 'row', sizes: [3, 1], children: [paneLeaf(1), paneLeaf(3)] });
    expect(removeLeaf(root, 1)).toEqual({ kind: 'split', direction: 'column', sizes: [2, 5], children: [paneLeaf(2), paneLeaf(3)] });
    expect(removeLeaf(paneLeaf(7), 7)).toBeUndefined();
    expect(removeLeaf(root, 99)).toEqual(root);
  });

  it('pruneLayout keeps exactly the live panes', () => {
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 30 }), fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }), (operations, keepFlags) => {
        const { root } = replay(operations);
        if (!root) return;
        const panes = panesOf(root);
        const keep = new Set(panes.filter((_, index) => keepFlags[index % keepFlags.length]));
        const pruned = pruneLayout(root, keep);
        if (keep.size === 0) expect(pruned).toBeUndefined();
        else {
          expect(panesOf(pruned!)).toEqual(panes.filter((id) => keep.has(id)));
          checkWellFormed(pruned!);
        }
      }),
    );
  });

  it('setSizesAt changes only the split at the path', () => {
    const inner: LayoutNode = { kind: 'split', direction: 'column', sizes: [1, 1], children: [paneLeaf(2), paneLeaf(3)] };
    const root: LayoutNode = { kind: 'split', direction: 'row', sizes: [1, 1], children: [paneLeaf(1), inner] };
    const changed = setSizesAt(root, [1], [0.2, 0.8]);
    expect(changed).toEqual({ ...root, children: [paneLeaf(1), { ...inner, sizes: [0.2, 0.8] }] });
    expect(setSizesAt(root, [], [3, 1])).toEqual({ ...root, sizes: [3, 1] });
    expect(root.sizes).toEqual([1, 1]);
    // A path into a pane leaves the tree as it is.
    expect(setSizesAt(root, [0], [5, 5])).toEqual(root);
  });

  it('normalizedSizes repairs whatever a saved file said', () => {
    expect(normalizedSizes([2, 0, -1, Number.NaN, Infinity], 6)).toEqual([2, 1, 1, 1, 1, 1]);
    expect(normalizedSizes([0.5, 0.25, 9], 2)).toEqual([0.5, 0.25]);
    fc.assert(
      fc.property(fc.array(fc.double()), fc.nat({ max: 20 }), (sizes, count) => {
        const result = normalizedSizes(sizes, count);
        expect(result).toHaveLength(count);
        for (const size of result) expect(Number.isFinite(size) && size > 0).toBe(true);
      }),
    );
  });
});

import type { LayoutNode } from '../../../shared/protocol';

export type SplitDirection = 'row' | 'column';
/** Child indexes from the root down to a split node. */
export type NodePath = number[];

export function paneLeaf(paneId: number): LayoutNode {
  return { kind: 'pane', paneId };
}

/** Pane ids in reading order (left to right, top to bottom). */
export function panesOf(node: LayoutNode): number[] {
  if (node.kind === 'pane') return [node.paneId];
  return node.children.flatMap(panesOf);
}

export function containsPane(node: LayoutNode, paneId: number): boolean {
  if (node.kind === 'pane') return node.paneId === paneId;
  return node.children.some((child) => containsPane(child, paneId));
}

/**
 * Puts `newPaneId` next to `paneId`. Splitting in the direction of the parent split adds a
 * sibling that takes half of the pane's share, so repeated splits do not nest needlessly.
 */
export function splitLeaf(node: LayoutNode, paneId: number, direction: SplitDirection, newPaneId: number): LayoutNode {
  if (node.kind === 'pane') {
    if (node.paneId !== paneId) return node;
    return { kind: 'split', direction, sizes: [1, 1], children: [node, paneLeaf(newPaneId)] };
  }
  const index = node.children.findIndex((child) => child.kind === 'pane' && child.paneId === paneId);
  if (index >= 0 && node.direction === direction && node.children.length < 16) {
    const share = (node.sizes[index] ?? 1) / 2;
    const sizes = [...node.sizes];
    sizes.splice(index, 1, share, share);
    const children = [...node.children];
    children.splice(index + 1, 0, paneLeaf(newPaneId));
    return { ...node, sizes, children };
  }
  return { ...node, children: node.children.map((child) => splitLeaf(child, paneId, direction, newPaneId)) };
}

/** Removes a pane; a split left with one child collapses into that child. Undefined when nothing is left. */
export function removeLeaf(node: LayoutNode, paneId: number): LayoutNode | undefined {
  if (node.kind === 'pane') return node.paneId === paneId ? undefined : node;
  const children: LayoutNode[] = [];
  const sizes: number[] = [];
  node.children.forEach((child, index) => {
    const kept = removeLeaf(child, paneId);
    if (!kept) return;
    children.push(kept);
    sizes.push(node.sizes[index] ?? 1);
  });
  if (children.length === 0) return undefined;
  if (children.length === 1) return children[0];
  return { ...node, children, sizes };
}

export function replaceLeaf(node: LayoutNode, oldPaneId: number, newPaneId: number): LayoutNode {
  if (node.kind === 'pane') return node.paneId === oldPaneId ? paneLeaf(newPaneId) : node;
  return { ...node, children: node.children.map((child) => replaceLeaf(child, oldPaneId, newPaneId)) };
}

export function setSizesAt(node: LayoutNode, path: NodePath, sizes: number[]): LayoutNode {
  if (node.kind === 'pane') return node;
  if (path.length === 0) return { ...node, sizes };
  const [head, ...rest] = path;
  return {
    ...node,
    children: node.children.map((child, index) => (index === head ? setSizesAt(child, rest, sizes) : child)),
  };
}

/** Drops leaves whose pane is not in `keep`, collapsing splits as needed. */
export function pruneLayout(node: LayoutNode, keep: ReadonlySet<number>): LayoutNode | undefined {
  let result: LayoutNode | undefined = node;
  for (const paneId of panesOf(node)) {
    if (!keep.has(paneId) && result) result = removeLeaf(result, paneId);
  }
  return result;
}

/** Positive sizes of the right length, whatever a saved file said. */
export function normalizedSizes(sizes: readonly number[], count: number): number[] {
  return Array.from({ length: count }, (_, index) => {
    const size = sizes[index];
    return size !== undefined && Number.isFinite(size) && size > 0 ? size : 1;
  });
}

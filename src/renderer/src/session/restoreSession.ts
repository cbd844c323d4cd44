import type { LayoutNode, RestoredLayoutNode, RestoredSession } from '../../../shared/protocol';
import type { Tab } from '../layout/layoutStore';
import { normalizedSizes, paneLeaf, panesOf } from '../layout/layoutTree';
import { estimatePaneSize } from '../terminal/initialPaneSize';
import { createPane } from '../terminal/paneLifecycle';

/** Rebuilds saved tabs and splits; each pane starts a new shell in its old cwd with its old scrollback. */
/** Each tab's focus goes back to the pane that had it. */
export async function restoreSession(session: RestoredSession): Promise<{ tabs: Omit<Tab, 'id'>[]; activeIndex: number }> {
  const built = await Promise.all(
    session.tabs.map(async (tab) => {
      const paneIds = new Map<string, number>();
      const root = await restoreNode(tab.layout, 1, 1, paneIds);
      if (!root) return undefined;
      const focused = tab.focusedRestoreKey !== undefined ? paneIds.get(tab.focusedRestoreKey) : undefined;
      return { root, focusedPaneId: focused ?? panesOf(root)[0] ?? -1, restoredTitle: tab.title };
    }),
  );
  const tabs = built.filter((tab): tab is NonNullable<typeof tab> => tab !== undefined);
  return { tabs, activeIndex: Math.min(session.activeTab, Math.max(0, tabs.length - 1)) };
}

/** `paneIds` learns the new pane of each restore key. */
async function restoreNode(
  node: RestoredLayoutNode,
  widthFraction: number,
  heightFraction: number,
  paneIds: Map<string, number>,
): Promise<LayoutNode | undefined> {
  if (node.kind === 'pane') {
    const leaf = await restorePane(node, widthFraction, heightFraction);
    if (leaf?.kind === 'pane') paneIds.set(node.restoreKey, leaf.paneId);
    return leaf;
  }
  const sizes = normalizedSizes(node.sizes, node.children.length);
  const total = sizes.reduce((sum, size) => sum + size, 0);
  const children = await Promise.all(
    node.children.map((child, index) => {
      const fraction = (sizes[index] ?? 1) / total;
      return node.direction === 'row'
        ? restoreNode(child, widthFraction * fraction, heightFraction, paneIds)
        : restoreNode(child, widthFraction, heightFraction * fraction, paneIds);
    }),
  );
  const kept = children
    .map((child, index) => ({ child, size: sizes[index] ?? 1 }))
    .filter((entry): entry is { child: LayoutNode; size: number } => entry.child !== undefined);
  if (kept.length === 0) return undefined;
  if (kept.length === 1) return kept[0]?.child;
  return { kind: 'split', direction: node.direction, sizes: kept.map((entry) => entry.size), children: kept.map((entry) => entry.child) };
}

async function restorePane(
  node: Extract<RestoredLayoutNode, { kind: 'pane' }>,
  widthFraction: number,
  heightFraction: number,
): Promise<LayoutNode | undefined> {
  const size = estimatePaneSize(widthFraction, heightFraction);
  const cwd = node.cwd || undefined;
  try {
    return paneLeaf(await createPane({ ...size, cwd, shell: node.shell || undefined, restoreKey: node.restoreKey }));
  } catch (error) {
    console.warn('[tandem] could not restore a pane; starting a fresh one', error);
  }
  try {
    // The saved shell or scrollback may be gone; a shell in the same directory still helps.
    return paneLeaf(await createPane({ ...size, cwd }));
  } catch {
    return undefined;
  }
}

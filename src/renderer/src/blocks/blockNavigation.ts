import { paneSessions } from '../terminal/paneSessions';
import { useBlocksStore } from './blocksStore';

/**
 * Ctrl+Shift+Up / Down: select the previous / next block of a pane and scroll to it.
 * Returns false when there is nowhere to go, so the key can reach the shell instead.
 */
export function jumpToBlock(paneId: number, direction: 'previous' | 'next'): boolean {
  const session = paneSessions.get(paneId);
  if (!session) return false;
  const terminal = session.terminal;
  const buffer = terminal.buffer.active;
  if (buffer.type !== 'normal') return false;
  const { idsByPane, selectedByPane, select } = useBlocksStore.getState();
  const placed = (idsByPane[paneId] ?? [])
    .map((id) => ({ id, top: session.blocks.markers.lines(id)?.top }))
    .filter((entry): entry is { id: string; top: number } => entry.top !== undefined)
    .sort((a, b) => a.top - b.top);
  if (placed.length === 0) return false;

  const selectedIndex = placed.findIndex((entry) => entry.id === selectedByPane[paneId]);
  const atBottom = buffer.viewportY >= buffer.baseY;
  let index: number;
  if (direction === 'previous') {
    if (selectedIndex >= 0) index = Math.max(0, selectedIndex - 1);
    else if (atBottom) index = placed.length - 1;
    else index = Math.max(0, findLastIndex(placed, (entry) => entry.top < buffer.viewportY));
  } else {
    if (selectedIndex >= 0) index = selectedIndex + 1;
    else if (atBottom) return false;
    else index = placed.findIndex((entry) => entry.top > buffer.viewportY);
    if (index < 0 || index >= placed.length) {
      select(paneId, undefined);
      terminal.scrollToBottom();
      return true;
    }
  }
  const target = placed[index];
  if (!target) return false;
  select(paneId, target.id);
  terminal.scrollToLine(target.top);
  return true;
}

function findLastIndex<T>(items: readonly T[], predicate: (item: T) => boolean): number {
  for (let index = items.length - 1; index >= 0; index--) {
    const item = items[index];
    if (item !== undefined && predicate(item)) return index;
  }
  return -1;
}

/** The block keyboard actions apply to: the selected one, else the most recent. */
export function targetBlockId(paneId: number): string | undefined {
  const { idsByPane, selectedByPane } = useBlocksStore.getState();
  const ids = idsByPane[paneId] ?? [];
  return selectedByPane[paneId] ?? ids[ids.length - 1];
}

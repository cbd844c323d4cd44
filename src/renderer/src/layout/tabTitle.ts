import type { PaneMeta } from '../terminal/panesStore';
import type { Tab } from './layoutStore';
import { panesOf } from './layoutTree';

export function basename(path: string): string {
  const trimmed = path.replace(/[\\/]+$/, '');
  if (trimmed === '') return path.startsWith('/') ? '/' : '';
  const parts = trimmed.split(/[\\/]/);
  return parts[parts.length - 1] ?? trimmed;
}

/** A tab is named after its focused pane's directory. */
export function tabTitle(tab: Tab, panes: Record<number, PaneMeta>): string {
  const pane = panes[tab.focusedPaneId] ?? panes[panesOf(tab.root)[0] ?? -1];
  if (!pane) return tab.restoredTitle || 'Terminal';
  return basename(pane.cwd) || pane.title?.trim() || tab.restoredTitle || pane.shellName || 'Terminal';
}

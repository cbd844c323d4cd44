import { SessionLayoutSchema, type SessionLayout } from '../../../shared/protocol';
import { useLayoutStore } from '../layout/layoutStore';
import { tabTitle } from '../layout/tabTitle';
import { usePanesStore } from '../terminal/panesStore';

const STORAGE_KEY = 'tandem.layout';

/** The current tabs and splits as the engine's SessionLayout (leaves are live pane ids). */
export function currentSessionLayout(): SessionLayout {
  const { tabs, activeTabId } = useLayoutStore.getState();
  const panes = usePanesStore.getState().panes;
  return {
    tabs: tabs.slice(0, 64).map((tab) => ({
      title: tabTitle(tab, panes).slice(0, 200),
      layout: tab.root,
      ...(tab.focusedPaneId >= 0 ? { focusedPaneId: tab.focusedPaneId } : {}),
    })),
    activeTab: Math.max(0, tabs.findIndex((tab) => tab.id === activeTabId)),
  };
}

/**
 * Kept in the page's storage so a reload, or a second browser tab taking the session over,
 * can put live panes back into their splits. Pane ids that are not live are pruned on use.
 */
export function rememberLayout(layout: SessionLayout): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(layout));
  } catch {
    // Storage disabled or full: a reload then opens live panes one per tab.
  }
}

export function rememberedLayout(): SessionLayout | undefined {
  try {
    const text = localStorage.getItem(STORAGE_KEY);
    if (!text) return undefined;
    const parsed = SessionLayoutSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

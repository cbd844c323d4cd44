import { create } from 'zustand';
import type { LayoutNode } from '../../../shared/protocol';
import {
  containsPane,
  panesOf,
  removeLeaf,
  replaceLeaf,
  setSizesAt,
  splitLeaf,
  type NodePath,
  type SplitDirection,
} from './layoutTree';

export interface Tab {
  /** Local id; engine pane ids live in the layout leaves. */
  id: string;
  root: LayoutNode;
  focusedPaneId: number;
  /** Title from a restored session, shown until the pane reports its own. */
  restoredTitle?: string;
}

interface LayoutState {
  tabs: Tab[];
  activeTabId: string | undefined;
  addTab(root: LayoutNode, options?: { restoredTitle?: string; activate?: boolean }): string;
  setTabs(tabs: Omit<Tab, 'id'>[], activeIndex: number): void;
  closeTab(tabId: string): void;
  activateTab(tabId: string): void;
  activateRelative(step: number): void;
  moveTab(tabId: string, toIndex: number): void;
  splitPane(paneId: number, direction: SplitDirection, newPaneId: number): void;
  /** Removes a pane from its tab; an emptied tab goes away. */
  removePane(paneId: number): void;
  replacePane(oldPaneId: number, newPaneId: number): void;
  focusPane(paneId: number): void;
  setSizes(tabId: string, path: NodePath, sizes: number[]): void;
  clear(): void;
}

let tabCounter = 0;
const newTabId = () => `tab-${++tabCounter}`;

function mapTabWithPane(tabs: Tab[], paneId: number, change: (tab: Tab) => Tab | undefined): Tab[] {
  const result: Tab[] = [];
  for (const tab of tabs) {
    if (!containsPane(tab.root, paneId)) {
      result.push(tab);
      continue;
    }
    const changed = change(tab);
    if (changed) result.push(changed);
  }
  return result;
}

export const useLayoutStore = create<LayoutState>()((set, get) => ({
  tabs: [],
  activeTabId: undefined,

  addTab(root, options = {}) {
    const id = newTabId();
    const tab: Tab = { id, root, focusedPaneId: panesOf(root)[0] ?? -1, restoredTitle: options.restoredTitle };
    set((state) => ({
      tabs: [...state.tabs, tab],
      activeTabId: options.activate === false && state.activeTabId ? state.activeTabId : id,
    }));
    return id;
  },

  setTabs(tabs, activeIndex) {
    const withIds = tabs.map((tab) => ({ ...tab, id: newTabId() }));
    const active = withIds[Math.min(Math.max(activeIndex, 0), withIds.length - 1)];
    set({ tabs: withIds, activeTabId: active?.id });
  },

  closeTab(tabId) {
    set((state) => {
      const index = state.tabs.findIndex((tab) => tab.id === tabId);
      if (index < 0) return state;
      const tabs = state.tabs.filter((tab) => tab.id !== tabId);
      let activeTabId = state.activeTabId;
      if (activeTabId === tabId) activeTabId = (tabs[index] ?? tabs[index - 1])?.id;
      return { tabs, activeTabId };
    });
  },

  activateTab(tabId) {
    if (get().tabs.some((tab) => tab.id === tabId)) set({ activeTabId: tabId });
  },

  activateRelative(step) {
    const { tabs, activeTabId } = get();
    if (tabs.length === 0) return;
    const index = Math.max(0, tabs.findIndex((tab) => tab.id === activeTabId));
    const next = tabs[(index + step + tabs.length * 8) % tabs.length];
    if (next) set({ activeTabId: next.id });
  },

  moveTab(tabId, toIndex) {
    set((state) => {
      const from = state.tabs.findIndex((tab) => tab.id === tabId);
      if (from < 0) return state;
      const tabs = [...state.tabs];
      const [moved] = tabs.splice(from, 1);
      if (!moved) return state;
      tabs.splice(Math.max(0, Math.min(toIndex, tabs.length)), 0, moved);
      return { tabs };
    });
  },

  splitPane(paneId, direction, newPaneId) {
    set((state) => ({
      tabs: mapTabWithPane(state.tabs, paneId, (tab) => ({
        ...tab,
        root: splitLeaf(tab.root, paneId, direction, newPaneId),
        focusedPaneId: newPaneId,
      })),
    }));
  },

  removePane(paneId) {
    set((state) => {
      const index = state.tabs.findIndex((tab) => containsPane(tab.root, paneId));
      if (index < 0) return state;
      const tabs = mapTabWithPane(state.tabs, paneId, (tab) => {
        const root = removeLeaf(tab.root, paneId);
        if (!root) return undefined;
        const remaining = panesOf(root);
        const focusedPaneId = tab.focusedPaneId === paneId ? (remaining[0] ?? -1) : tab.focusedPaneId;
        return { ...tab, root, focusedPaneId };
      });
      let activeTabId = state.activeTabId;
      if (!tabs.some((tab) => tab.id === activeTabId)) activeTabId = (tabs[index] ?? tabs[index - 1])?.id;
      return { tabs, activeTabId };
    });
  },

  replacePane(oldPaneId, newPaneId) {
    set((state) => ({
      tabs: mapTabWithPane(state.tabs, oldPaneId, (tab) => ({
        ...tab,
        root: replaceLeaf(tab.root, oldPaneId, newPaneId),
        focusedPaneId: tab.focusedPaneId === oldPaneId ? newPaneId : tab.focusedPaneId,
      })),
    }));
  },

  focusPane(paneId) {
    set((state) => {
      const tab = state.tabs.find((candidate) => containsPane(candidate.root, paneId));
      if (!tab || (tab.focusedPaneId === paneId && state.activeTabId === tab.id)) return state;
      return {
        activeTabId: tab.id,
        tabs: state.tabs.map((candidate) => (candidate === tab ? { ...candidate, focusedPaneId: paneId } : candidate)),
      };
    });
  },

  setSizes(tabId, path, sizes) {
    set((state) => ({
      tabs: state.tabs.map((tab) => (tab.id === tabId ? { ...tab, root: setSizesAt(tab.root, path, sizes) } : tab)),
    }));
  },

  clear() {
    set({ tabs: [], activeTabId: undefined });
  },
}));

export function activeTab(): Tab | undefined {
  const { tabs, activeTabId } = useLayoutStore.getState();
  return tabs.find((tab) => tab.id === activeTabId);
}

/** The pane keyboard actions apply to: the focused pane of the active tab. */
export function focusedPaneId(): number | undefined {
  const tab = activeTab();
  return tab && tab.focusedPaneId >= 0 ? tab.focusedPaneId : undefined;
}

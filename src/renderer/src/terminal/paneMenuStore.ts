import { create } from 'zustand';

/** Where a menu was asked for, in viewport pixels. */
export interface MenuPlace {
  x: number;
  y: number;
}

interface PaneMenuState {
  /** The one pane menu that is open, if any. */
  open: { paneId: number; place: MenuPlace } | undefined;
  show(paneId: number, place: MenuPlace): void;
  hide(): void;
}

export const usePaneMenu = create<PaneMenuState>((set) => ({
  open: undefined,
  show: (paneId, place) => set({ open: { paneId, place } }),
  hide: () => set({ open: undefined }),
}));

/** Opened from the keyboard (the Menu key, Shift+F10): at the pane's top left corner. */
export function showPaneMenuAtCorner(paneId: number): boolean {
  const body = document.querySelector(`[data-pane-id="${paneId}"] .pane__body`);
  if (!body) return false;
  const corner = body.getBoundingClientRect();
  usePaneMenu.getState().show(paneId, { x: corner.left + 16, y: corner.top + 16 });
  return true;
}

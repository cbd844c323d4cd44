import { create } from 'zustand';

interface UiState {
  paletteOpen: boolean;
  settingsOpen: boolean;
  /** Pane whose find bar is open. */
  findPaneId: number | undefined;
  /** Bumped to move focus into the open find bar again. */
  findFocusRequest: number;
  /** Block whose action menu was asked for from the keyboard. */
  blockMenuRequest: { blockId: string; serial: number } | undefined;
  /** A short confirmation in the status bar ("Command copied"); it never takes focus. */
  statusFlash: { text: string; serial: number } | undefined;
  setPaletteOpen(open: boolean): void;
  setSettingsOpen(open: boolean): void;
  openFind(paneId: number): void;
  setFindPane(paneId: number | undefined): void;
  requestBlockMenu(blockId: string | undefined): void;
  flashStatus(text: string): void;
}

let serial = 0;
const STATUS_FLASH_MS = 2_000;

export const useUiStore = create<UiState>()((set) => ({
  paletteOpen: false,
  settingsOpen: false,
  findPaneId: undefined,
  findFocusRequest: 0,
  blockMenuRequest: undefined,
  statusFlash: undefined,
  setPaletteOpen: (paletteOpen) => set(paletteOpen ? { paletteOpen, settingsOpen: false } : { paletteOpen }),
  setSettingsOpen: (settingsOpen) => set(settingsOpen ? { settingsOpen, paletteOpen: false } : { settingsOpen }),
  openFind: (paneId) => set((state) => ({ findPaneId: paneId, findFocusRequest: state.findFocusRequest + 1 })),
  setFindPane: (findPaneId) => set({ findPaneId }),
  requestBlockMenu: (blockId) => set({ blockMenuRequest: blockId ? { blockId, serial: ++serial } : undefined }),
  flashStatus: (text) => {
    const flash = { text, serial: ++serial };
    set({ statusFlash: flash });
    window.setTimeout(() => set((state) => (state.statusFlash === flash ? { statusFlash: undefined } : state)), STATUS_FLASH_MS);
  },
}));

import { create } from 'zustand';
import type { CompanionHint } from '../../../shared/companion';

interface CompanionState {
  /** Each pane's Watch-mode hint while it shows; the engine decides them, the user may dismiss one. */
  hints: Record<number, CompanionHint>;
  setHint(paneId: number, hint: CompanionHint | null): void;
  dismiss(paneId: number): void;
  clear(): void;
}

export const useCompanionStore = create<CompanionState>()((set) => ({
  hints: {},
  setHint: (paneId, hint) =>
    set((state) => {
      const hints = { ...state.hints };
      if (hint) hints[paneId] = hint;
      else delete hints[paneId];
      return { hints };
    }),
  dismiss: (paneId) =>
    set((state) => {
      if (!state.hints[paneId]) return state;
      const hints = { ...state.hints };
      delete hints[paneId];
      return { hints };
    }),
  clear: () => set({ hints: {} }),
}));

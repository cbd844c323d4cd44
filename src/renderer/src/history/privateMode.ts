import { create } from 'zustand';
import { useBannerStore } from '../app/bannerStore';
import { engine } from '../app/engine';

interface PrivatePanesState {
  /** Panes in private mode: nothing of them is written to the block history. */
  panes: Record<number, true>;
  set(paneId: number, on: boolean): void;
}

/** What the engine said about each pane's private mode (its `pane.private` events). */
export const usePrivatePanes = create<PrivatePanesState>((set) => ({
  panes: {},
  set: (paneId, on) =>
    set((state) => {
      const panes = { ...state.panes };
      if (on) panes[paneId] = true;
      else delete panes[paneId];
      return { panes };
    }),
}));

/** Turns the pane's private mode on or off in the engine; the indicator follows the engine's event. */
export async function togglePrivateMode(paneId: number): Promise<void> {
  const on = !usePrivatePanes.getState().panes[paneId];
  try {
    const result = await engine().request('pane.private', { paneId, on });
    usePrivatePanes.getState().set(paneId, result.private);
  } catch (error) {
    useBannerStore.getState().show({
      key: 'private-mode',
      level: 'error',
      message: `Private mode could not be turned ${on ? 'on' : 'off'}: ${error instanceof Error ? error.message : String(error)}`,
      dismissible: true,
    });
  }
}

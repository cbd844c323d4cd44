import { create } from 'zustand';
import type { WatchersView } from '../../../shared/watchers';

interface WatchersListState {
  open: boolean;
  /** The engine's last answer; undefined until the first arrives. */
  view: WatchersView | undefined;
  /** Why the last request failed, shown above the list. */
  error: string | undefined;
  /** The rows whose switch waits for the engine's answer (by watcherKey). */
  switching: string[];
  set(change: Partial<Omit<WatchersListState, 'set'>>): void;
}

export const useWatchersList = create<WatchersListState>((set) => ({
  open: false,
  view: undefined,
  error: undefined,
  switching: [],
  set: (change) => set(change),
}));

import { create } from 'zustand';
import type { HistoryEntry, HistoryScope } from '../../../shared/history';
import { NO_FILTERS, type HistoryFilters, type MatchMode } from './historyFilters';

/** The commands around one record, shown in place of the results. */
export interface NeighbourView {
  anchorId: number;
  records: HistoryEntry[];
}

interface HistorySearchState {
  open: boolean;
  /** The pane the overlay was opened from: results go there, its directory ranks first. */
  paneId: number | undefined;
  text: string;
  match: MatchMode;
  filters: HistoryFilters;
  scope: HistoryScope | undefined;
  results: HistoryEntry[];
  /** Set while the commands around a record are shown instead of the results. */
  neighbours: NeighbourView | undefined;
  /** Index into the list shown (results or neighbours). */
  selected: number;
  /** A search is on its way (the results shown are for an earlier text). */
  searching: boolean;
  /** Why the last request failed, shown in place of the list. */
  error: string | undefined;
  /** What the last action said (inserted, refused, copied), shown under the list. */
  notice: { text: string; level: 'info' | 'warning' } | undefined;
  /** The record "Forget" asks about. */
  confirmForget: HistoryEntry | undefined;
  set(change: Partial<Omit<HistorySearchState, 'set' | 'reset'>>): void;
  reset(paneId: number | undefined): void;
}

const closed = {
  open: false,
  paneId: undefined,
  text: '',
  scope: undefined,
  results: [],
  neighbours: undefined,
  selected: 0,
  searching: false,
  error: undefined,
  notice: undefined,
  confirmForget: undefined,
};

/** The overlay's state; its chips and match mode stay as they were from one opening to the next. */
export const useHistorySearch = create<HistorySearchState>()((set) => ({
  ...closed,
  match: 'substring',
  filters: NO_FILTERS,
  set: (change) => set(change),
  reset: (paneId) => set({ ...closed, open: true, paneId }),
}));

/** The list the overlay shows now. */
export function shownRecords(state: Pick<HistorySearchState, 'results' | 'neighbours'>): HistoryEntry[] {
  return state.neighbours?.records ?? state.results;
}

export function selectedRecord(state: Pick<HistorySearchState, 'results' | 'neighbours' | 'selected'>): HistoryEntry | undefined {
  return shownRecords(state)[state.selected];
}

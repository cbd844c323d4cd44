import { engine } from '../app/engine';
import { focusedPaneId } from '../layout/layoutStore';
import { focusActivePane } from '../terminal/paneLifecycle';
import { usePanesStore } from '../terminal/panesStore';
import { searchParams, type HistoryFilters } from './historyFilters';
import { useHistorySearch, shownRecords, selectedRecord } from './historySearchStore';
import { LatestResponses } from './latestResponses';

/** How many commands before and after a record "Show commands around it" lists. */
export const NEIGHBOUR_COUNT = 10;
/** How far PageUp and PageDown move the selection. */
export const PAGE_ROWS = 10;

const latest = new LatestResponses();

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Ctrl+Shift+R and the palette's "Search History": opens over the active pane, or closes. */
export function toggleHistorySearch(): void {
  if (useHistorySearch.getState().open) closeHistorySearch();
  else openHistorySearch();
}

export function openHistorySearch(): void {
  const paneId = focusedPaneId();
  latest.dropPending();
  useHistorySearch.getState().reset(paneId);
  search();
  if (paneId !== undefined) void loadScope(paneId);
}

/** Esc, or an action done: the overlay goes; the keyboard goes back to the pane unless the action placed it. */
export function closeHistorySearch(refocus = true): void {
  latest.dropPending();
  useHistorySearch.getState().set({ open: false, confirmForget: undefined });
  if (refocus) focusActivePane();
}

async function loadScope(paneId: number): Promise<void> {
  try {
    const scope = await engine().request('history.scope', { paneId });
    const state = useHistorySearch.getState();
    if (!state.open || state.paneId !== paneId) return;
    state.set({ scope });
    // Ranking by directory, and the chips that need the scope, apply from now on.
    search();
  } catch (error) {
    useHistorySearch.getState().set({ notice: { level: 'warning', text: `The pane's directory and repository are not known: ${errorText(error)}` } });
  }
}

/** Searches for what is typed with the chips that are on; answers to older texts that come late are dropped. */
export function search(): void {
  const state = useHistorySearch.getState();
  const cwd = state.paneId !== undefined ? usePanesStore.getState().panes[state.paneId]?.cwd : undefined;
  const scope = state.scope ?? (cwd ? { cwd, host: '', repoRoot: null } : undefined);
  const ticket = latest.next();
  state.set({ searching: true });
  engine()
    .request('history.search', searchParams(state.text, state.match, state.filters, scope, new Date()))
    .then(
      ({ records }) => {
        if (!latest.accept(ticket)) return;
        useHistorySearch.getState().set({ results: records, selected: 0, error: undefined, searching: !latest.isLatest(ticket) });
      },
      (error: unknown) => {
        if (!latest.accept(ticket)) return;
        useHistorySearch.getState().set({ results: [], selected: 0, error: errorText(error), searching: !latest.isLatest(ticket) });
      },
    );
}

export function setSearchText(text: string): void {
  useHistorySearch.getState().set({ text, neighbours: undefined, notice: undefined });
  search();
}

export function toggleMatch(): void {
  const { match, set } = useHistorySearch.getState();
  set({ match: match === 'fuzzy' ? 'substring' : 'fuzzy', neighbours: undefined });
  search();
}

export function setFilters(change: Partial<HistoryFilters>): void {
  const { filters, set } = useHistorySearch.getState();
  set({ filters: { ...filters, ...change }, neighbours: undefined, notice: undefined });
  search();
}

export function select(index: number): void {
  const state = useHistorySearch.getState();
  const count = shownRecords(state).length;
  if (count === 0) return;
  state.set({ selected: Math.max(0, Math.min(count - 1, index)) });
}

export function moveSelection(delta: number): void {
  select(useHistorySearch.getState().selected + delta);
}

/** Shows the commands run around the selected one in its session, or goes back to the results. */
export async function toggleNeighbours(): Promise<void> {
  const state = useHistorySearch.getState();
  if (state.neighbours) {
    const index = state.results.findIndex((record) => record.id === state.neighbours?.anchorId);
    state.set({ neighbours: undefined, selected: Math.max(0, index) });
    return;
  }
  const record = selectedRecord(state);
  if (!record) return;
  try {
    const { records } = await engine().request('history.neighbours', { id: record.id, count: NEIGHBOUR_COUNT });
    const now = useHistorySearch.getState();
    if (!now.open || selectedRecord(now)?.id !== record.id) return;
    now.set({ neighbours: { anchorId: record.id, records }, selected: Math.max(0, records.findIndex((entry) => entry.id === record.id)), notice: undefined });
  } catch (error) {
    useHistorySearch.getState().set({ notice: { level: 'warning', text: errorText(error) } });
  }
}

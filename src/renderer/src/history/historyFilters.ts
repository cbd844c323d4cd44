import type { HistoryAuthor, HistoryScope } from '../../../shared/history';
import type { Params } from '../../../shared/protocol';

export type TimeRange = 'all' | 'today' | '7d' | '30d';
export type WhoFilter = 'anyone' | HistoryAuthor;
export type MatchMode = 'substring' | 'fuzzy';

/** The overlay's chips. */
export interface HistoryFilters {
  failed: boolean;
  thisDirectory: boolean;
  thisRepo: boolean;
  thisHost: boolean;
  who: WhoFilter;
  time: TimeRange;
}

export const NO_FILTERS: HistoryFilters = { failed: false, thisDirectory: false, thisRepo: false, thisHost: false, who: 'anyone', time: 'all' };

export const TIME_RANGES: { value: TimeRange; label: string }[] = [
  { value: 'all', label: 'Any time' },
  { value: 'today', label: 'Today' },
  { value: '7d', label: 'Last 7 days' },
  { value: '30d', label: 'Last 30 days' },
];

export const WHO_FILTERS: { value: WhoFilter; label: string }[] = [
  { value: 'anyone', label: 'Anyone' },
  { value: 'you', label: 'You' },
  { value: 'agent-step', label: 'Agent steps' },
  { value: 'auto-run', label: 'Auto runs' },
  { value: 'child-agent', label: 'Child agents' },
];

/** How many results one search shows. */
export const RESULT_LIMIT = 100;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The earliest start time a range lets through: today is since local midnight. */
export function sinceOf(range: TimeRange, now: Date): number | undefined {
  switch (range) {
    case 'all':
      return undefined;
    case 'today':
      return new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
    case '7d':
      return now.getTime() - 7 * DAY_MS;
    case '30d':
      return now.getTime() - 30 * DAY_MS;
  }
}

/**
 * The engine request for what is typed and the chips that are on. Chips that need the pane's
 * scope (directory, repo, host) do nothing until it is known, or when it has no such thing.
 */
export function searchParams(text: string, match: MatchMode, filters: HistoryFilters, scope: HistoryScope | undefined, now: Date): Params<'history.search'> {
  const params: Params<'history.search'> = { match, limit: RESULT_LIMIT };
  if (text.trim() !== '') params.query = text;
  if (scope?.cwd) params.from = scope.cwd;
  if (filters.failed) params.failed = true;
  if (filters.thisDirectory && scope?.cwd) {
    params.cwd = scope.cwd;
    // A remote pane's directory is that host's: the same path here is another directory.
    if (scope.remote) params.host = scope.host;
  }
  if (filters.thisRepo && scope?.repoRoot) params.repo = scope.repoRoot;
  if (filters.thisHost && scope?.host) params.host = scope.host;
  if (filters.who !== 'anyone') params.author = filters.who;
  const since = sinceOf(filters.time, now);
  if (since !== undefined) params.since = since;
  return params;
}

import type { HistoryScope } from '../../../shared/history';
import { setFilters } from './historySearch';
import { TIME_RANGES, WHO_FILTERS, type HistoryFilters, type TimeRange, type WhoFilter } from './historyFilters';

interface ChipProps {
  name: string;
  label: string;
  on: boolean;
  disabledReason?: string;
  title: string;
  toggle(): void;
}

function Chip({ name, label, on, disabledReason, title, toggle }: ChipProps) {
  return (
    <button
      type="button"
      className={`history-chip${on ? ' history-chip--on' : ''}`}
      data-testid="history-chip"
      data-chip={name}
      aria-pressed={on}
      disabled={disabledReason !== undefined}
      title={disabledReason ?? title}
      // The search field keeps the keyboard (Tab still reaches the chips).
      onMouseDown={(event) => event.preventDefault()}
      onClick={toggle}
    >
      {label}
    </button>
  );
}

/** The filters, each a chip: failed only, this directory, this repo, this host, who ran it, when. */
export function HistoryChips({ filters, scope }: { filters: HistoryFilters; scope: HistoryScope | undefined }) {
  const repoReason = !scope ? 'Looking for the repository of the pane…' : scope.repoRoot ? undefined : (scope.repoUnknown ?? 'The pane is not in a git repository');
  return (
    <div className="history-chips" role="group" aria-label="Filters">
      <Chip name="failed" label="Failed" on={filters.failed} title="Only commands that exited non-zero" toggle={() => setFilters({ failed: !filters.failed })} />
      <Chip
        name="directory"
        label="This directory"
        on={filters.thisDirectory}
        disabledReason={scope && !scope.cwd ? "The pane's directory is not known" : undefined}
        title={`Only commands run in ${scope?.cwd || "the pane's directory"}`}
        toggle={() => setFilters({ thisDirectory: !filters.thisDirectory })}
      />
      <Chip
        name="repo"
        label="This repo"
        on={filters.thisRepo && !repoReason}
        disabledReason={repoReason}
        title={`Only commands run in ${scope?.repoRoot ?? 'the repository'}`}
        toggle={() => setFilters({ thisRepo: !filters.thisRepo })}
      />
      <Chip name="host" label="This host" on={filters.thisHost} title={`Only commands run on ${scope?.host || 'this machine'}`} toggle={() => setFilters({ thisHost: !filters.thisHost })} />
      <select
        className={`history-chip history-chip--select${filters.who !== 'anyone' ? ' history-chip--on' : ''}`}
        data-testid="history-who"
        aria-label="Who ran it"
        title="Who ran it"
        value={filters.who}
        onChange={(event) => setFilters({ who: event.target.value as WhoFilter })}
      >
        {WHO_FILTERS.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <select
        className={`history-chip history-chip--select${filters.time !== 'all' ? ' history-chip--on' : ''}`}
        data-testid="history-time"
        aria-label="When"
        title="When it ran"
        value={filters.time}
        onChange={(event) => setFilters({ time: event.target.value as TimeRange })}
      >
        {TIME_RANGES.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

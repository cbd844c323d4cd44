import type { HistoryScope } from '../../../shared/history';
import { setFilters } from './historySearch';
import { TIME_RANGES, WHO_FILTERS, type HistoryFilters } from './historyFilters';

interface ChipProps {
  name: string;
  label: string;
  on: boolean;
  disabledReason?: string;
  title: string;
  /** The host chip's host (a stable attribute for tests and tools). */
  host?: string;
  toggle(): void;
}

function Chip({ name, label, on, disabledReason, title, host, toggle }: ChipProps) {
  return (
    <button
      type="button"
      className={`history-chip${on ? ' history-chip--on' : ''}`}
      data-testid="history-chip"
      data-chip={name}
      data-host={host}
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

interface ChipSelectProps<T extends string> {
  testId: string;
  label: string;
  options: readonly { value: T; label: string }[];
  value: T;
  /** The choice that filters nothing: the chip is not lit for it. */
  unfiltered: T;
  choose(value: T): void;
}

function ChipSelect<T extends string>({ testId, label, options, value, unfiltered, choose }: ChipSelectProps<T>) {
  return (
    <select
      className={`history-chip history-chip--select${value !== unfiltered ? ' history-chip--on' : ''}`}
      data-testid={testId}
      aria-label={label}
      title={label}
      value={value}
      onChange={(event) => choose(event.target.value as T)}
    >
      {options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </select>
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
        title={`Only commands run in ${scope?.cwd ? `${scope.remote ? `${scope.host}:` : ''}${scope.cwd}` : "the pane's directory"}`}
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
      <Chip
        name="host"
        label="This host"
        on={filters.thisHost}
        title={`Only commands run on ${scope?.host || 'the pane’s host'} (where the pane's shell runs: a remote host while it is on one)`}
        host={scope?.host}
        toggle={() => setFilters({ thisHost: !filters.thisHost })}
      />
      <ChipSelect testId="history-who" label="Who ran it" options={WHO_FILTERS} value={filters.who} unfiltered="anyone" choose={(who) => setFilters({ who })} />
      <ChipSelect testId="history-time" label="When it ran" options={TIME_RANGES} value={filters.time} unfiltered="all" choose={(time) => setFilters({ time })} />
    </div>
  );
}

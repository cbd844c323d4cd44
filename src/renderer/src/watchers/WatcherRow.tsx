import type { WatcherView } from '../../../shared/watchers';
import { lastFiredText, nextRunText, sourceLabel, watcherState } from './watcherWords';

interface Props {
  watcher: WatcherView;
  now: number;
  switching: boolean;
  onSwitch(enabled: boolean): void;
}

/** One watcher: what it watches and does, its switch, when it last fired and why, its next run, why it waits. */
export function WatcherRow({ watcher, now, switching, onSwitch }: Props) {
  const state = watcherState(watcher, now);
  const next = nextRunText(watcher, now);
  return (
    <li className={`watcher-row${watcher.enabled ? '' : ' watcher-row--off'}`} data-testid="watcher-row" data-watcher={watcher.name}>
      <div className="watcher-row__head">
        <span className="watcher-row__name">{watcher.name}</span>
        <span className="watcher-row__source" title={watcher.file}>
          {sourceLabel(watcher)}
        </span>
        <span className="watcher-row__action" title="What a firing does">
          {watcher.action}
        </span>
        <button
          type="button"
          role="switch"
          className={`watcher-switch${watcher.enabled ? ' watcher-switch--on' : ''}`}
          data-testid="watcher-switch"
          aria-checked={watcher.enabled}
          aria-label={`${watcher.name}: ${watcher.enabled ? 'on' : 'off'}`}
          title="On or off until Tandem ends; the file is not changed (use enabled = false there to keep it off)"
          aria-busy={switching}
          onClick={() => {
            // Not `disabled` while the engine answers: a disabled button would drop the keyboard focus.
            if (!switching) onSwitch(!watcher.enabled);
          }}
        >
          {watcher.enabled ? 'On' : 'Off'}
        </button>
      </div>
      <div className="watcher-row__summary">
        <span className="watcher-row__trigger">{watcher.trigger}</span> {watcher.summary}
      </div>
      <div className="watcher-row__instruction"># {watcher.instruction}</div>
      <dl className="watcher-row__facts">
        <dt>Last fired</dt>
        <dd data-testid="watcher-last-fired">{lastFiredText(watcher, now)}</dd>
        {next !== undefined && (
          <>
            <dt>Next run</dt>
            <dd data-testid="watcher-next-run">{next}</dd>
          </>
        )}
        {state !== undefined && (
          <>
            <dt>State</dt>
            <dd data-testid="watcher-state">{state}</dd>
          </>
        )}
      </dl>
    </li>
  );
}

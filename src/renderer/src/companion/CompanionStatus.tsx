import type { CompanionMode } from '../../../shared/companion';
import { useSettingsStore } from '../settings/settingsStore';
import { autoProgress, useAutoRun, useElapsed } from './autoRunState';
import { useCompanionStore } from './companionStore';
import { HintText } from './HintText';

const MODE_LABELS: Record<CompanionMode, string> = {
  watch: 'Watching',
  auto: 'Auto',
  // Only Watch mode's hints are off: `??`, `#` and the panel still work, so this is not "AI off".
  off: 'Hints off',
};

const MODE_TITLES: Record<CompanionMode, string> = {
  watch: 'Watch mode: hints appear here when you look stuck, made from your commands alone — nothing is sent anywhere until you ask (`??` or `#`).',
  auto: 'Auto mode: the AI works on a task; GREEN steps run without asking, others ask, RED ones are refused. Ctrl+C in its pane or Esc in the AI panel stops it.',
  off: 'Watch hints are off ([companion] hints in Settings); `??`, `#` and the AI panel still work.',
};

/** The companion's state (an auto run's task and progress), and the focused pane's hint when it has one. */
export function CompanionStatus({ paneId }: { paneId: number | undefined }) {
  const hintsOn = useSettingsStore((state) => state.settings.companion.hints);
  const hint = useCompanionStore((state) => (paneId !== undefined ? state.hints[paneId] : undefined));
  const auto = useAutoRun();
  const elapsed = useElapsed(auto?.startedAt);
  const mode: CompanionMode = auto ? 'auto' : hintsOn ? 'watch' : 'off';
  return (
    <>
      <span className={`status-bar__item status-bar__companion status-bar__companion--${mode}`} data-testid="companion-status" data-mode={mode} title={MODE_TITLES[mode]}>
        {auto ? (
          // Only the task gives way when the bar is short: the progress is always there in full.
          <>
            <span className="status-bar__auto-task">Auto: {auto.task}</span>
            <span className="status-bar__auto-progress" data-testid="companion-progress">
              &nbsp;({autoProgress(auto, elapsed)})
            </span>
          </>
        ) : (
          MODE_LABELS[mode]
        )}
      </span>
      {hint && !auto && (
        <button
          type="button"
          className="status-bar__hint"
          data-testid="companion-hint"
          data-pattern={hint.pattern}
          data-pane-id={hint.paneId}
          title="Dismiss (click, or Esc at the prompt)"
          // A click dismisses the hint and leaves the keyboard where it was (the terminal).
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => useCompanionStore.getState().dismiss(hint.paneId)}
        >
          <HintText text={hint.text} />
        </button>
      )}
    </>
  );
}

import { stopAutoRun } from '../ai/agentRequests';
import { autoProgress, useAutoRun, useElapsed } from './autoRunState';

/** Over the pane an `!auto` run works in: its task, progress and Stop (Ctrl+C in the pane does the same). */
export function AutoBanner({ paneId }: { paneId: number }) {
  const auto = useAutoRun();
  const here = auto?.paneId === paneId ? auto : undefined;
  const elapsed = useElapsed(here?.startedAt);
  if (!here) return null;
  return (
    <div className="auto-banner" data-testid="auto-banner" data-pane-id={paneId} role="status" aria-live="polite">
      <span className="auto-banner__label">Auto</span>
      <span className="auto-banner__task" title={here.task}>
        {here.task}
      </span>
      <span className="auto-banner__progress" data-testid="auto-progress">
        {here.stopping ? `stopping: ${here.stopping}` : autoProgress(here, elapsed)}
      </span>
      <button
        type="button"
        className="auto-banner__stop"
        data-action="stop"
        title="Stop the run: the running step is interrupted (Ctrl+C in the pane, or Esc in the AI panel, does the same)"
        // The keyboard stays in the terminal.
        onMouseDown={(event) => event.preventDefault()}
        onClick={() => void stopAutoRun()}
        disabled={here.stopping !== undefined}
      >
        Stop
      </button>
    </div>
  );
}

import { DEAD_PANE_KEYS } from './deadPaneKeys';
import { closePane, restartPane } from './paneLifecycle';

/** Shown under an exited pane's terminal, whose scrollback stays readable above. */
export function PaneExitBar({ paneId, message }: { paneId: number; message: string }) {
  return (
    <div className="pane-exit" data-testid="pane-exit" role="status">
      <span className="pane-exit__message">{message}</span>
      <button type="button" data-testid="pane-exit-restart" onClick={() => void restartPane(paneId)}>
        Restart ({DEAD_PANE_KEYS.restart})
      </button>
      <button type="button" data-testid="pane-exit-close" onClick={() => closePane(paneId)}>
        Close ({DEAD_PANE_KEYS.close})
      </button>
    </div>
  );
}

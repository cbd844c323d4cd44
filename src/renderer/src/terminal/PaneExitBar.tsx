import { chordLabel } from '../actions/chords';
import { primaryChord } from '../actions/keybindings';
import { closePane, restartPane } from './paneLifecycle';

/** Shown under an exited pane's terminal, whose scrollback stays readable above. */
export function PaneExitBar({ paneId, message }: { paneId: number; message: string }) {
  const closeChord = primaryChord('pane.close');
  return (
    <div className="pane-exit" data-testid="pane-exit" role="status">
      <span className="pane-exit__message">{message}</span>
      <button type="button" onClick={() => void restartPane(paneId)}>
        Restart (Enter)
      </button>
      <button type="button" onClick={() => closePane(paneId)}>
        Close{closeChord ? ` (${chordLabel(closeChord)})` : ''}
      </button>
    </div>
  );
}

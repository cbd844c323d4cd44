import type { HistoryEntry } from '../../../shared/history';
import { askAboutSelected, askToForgetSelected, copySelected, insertSelected, openRefusal, openSelected, runSelected } from './historyActions';
import { toggleNeighbours } from './historySearch';
import { overlayKeyLabel, type OVERLAY_CHORDS } from './overlayKeys';

interface ActionButtonProps {
  command: keyof typeof OVERLAY_CHORDS;
  label: string;
  title: string;
  disabledReason?: string;
  pressed?: boolean;
  run(): void;
}

function ActionButton({ command, label, title, disabledReason, pressed, run }: ActionButtonProps) {
  return (
    <button
      type="button"
      className="history-action"
      data-testid="history-action"
      data-action={command}
      disabled={disabledReason !== undefined}
      aria-pressed={pressed}
      title={disabledReason ?? title}
      // The search field keeps the keyboard.
      onMouseDown={(event) => event.preventDefault()}
      onClick={run}
    >
      {label} <kbd>{overlayKeyLabel(command)}</kbd>
    </button>
  );
}

/** Every action on the selected record, each a labelled button showing its key. */
export function HistoryActionBar({ record, showingNeighbours }: { record: HistoryEntry | undefined; showingNeighbours: boolean }) {
  const none = record ? undefined : 'Nothing is selected';
  return (
    <div className="history-actions" role="toolbar" aria-label="Actions on the selected command">
      <ActionButton command="insert" label="Insert" title="Put it on the prompt without running it" disabledReason={none} run={insertSelected} />
      <ActionButton command="run" label="Run" title="Type it into the pane and run it, as if you did" disabledReason={none} run={runSelected} />
      <ActionButton command="copy" label="Copy" title="Copy the command" disabledReason={none} run={() => void copySelected()} />
      <ActionButton
        command="neighbours"
        label={showingNeighbours ? 'Back to results' : 'Commands around it'}
        title={showingNeighbours ? 'Back to the search results' : 'The commands run before and after it in its session'}
        disabledReason={showingNeighbours ? undefined : none}
        pressed={showingNeighbours}
        run={() => void toggleNeighbours()}
      />
      <ActionButton command="open" label="Open block" title="Show the block in its pane's scrollback" disabledReason={none ?? (record && openRefusal(record))} run={openSelected} />
      <ActionButton command="ask" label="Ask AI" title="Attach it to the AI panel" disabledReason={none} run={askAboutSelected} />
      <ActionButton command="forget" label="Forget" title="Delete it from the history (asks first)" disabledReason={none} run={askToForgetSelected} />
    </div>
  );
}

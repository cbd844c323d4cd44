import { chordLabel } from '../actions/chords';
import { primaryChord } from '../actions/keybindings';
import { useConnectionStore } from '../app/connectionStore';
import { openNewTab } from '../terminal/paneLifecycle';
import { useLayoutStore } from './layoutStore';
import { SplitView } from './SplitView';

/** Every tab stays mounted (hidden when inactive) so its terminals keep their state. */
export function Workspace() {
  const tabs = useLayoutStore((state) => state.tabs);
  const activeTabId = useLayoutStore((state) => state.activeTabId);
  const connected = useConnectionStore((state) => state.status === 'open');

  if (tabs.length === 0) {
    const chord = primaryChord('tab.new');
    return (
      <main className="workspace workspace--empty" data-testid="workspace">
        {connected ? (
          <div className="workspace__empty">
            <p>No open tabs.</p>
            <button type="button" onClick={() => void openNewTab()}>
              New tab{chord ? ` (${chordLabel(chord)})` : ''}
            </button>
          </div>
        ) : (
          <div className="workspace__empty">
            <p>Connecting to the Tandem engine…</p>
          </div>
        )}
      </main>
    );
  }

  return (
    <main className="workspace" data-testid="workspace">
      {tabs.map((tab) => {
        const active = tab.id === activeTabId;
        return (
          <div key={tab.id} className="tab-panel" role="tabpanel" hidden={!active} data-tab-id={tab.id}>
            <SplitView
              tabId={tab.id}
              node={tab.root}
              path={[]}
              visible={active}
              focusedPaneId={tab.focusedPaneId}
              showFocus={tab.root.kind === 'split'}
            />
          </div>
        );
      })}
    </main>
  );
}

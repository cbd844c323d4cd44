import type { MouseEvent } from 'react';
import { chordLabel } from '../actions/chords';
import { primaryChord } from '../actions/keybindings';
import { useUiStore } from '../app/uiStore';
import { closeTabAsking } from '../closing/closeAsking';
import { openNewTab } from '../terminal/paneLifecycle';
import { usePanesStore } from '../terminal/panesStore';
import { useLayoutStore } from './layoutStore';
import { panesOf } from './layoutTree';
import { tabTitle } from './tabTitle';

function shortcutHint(actionId: string): string {
  const chord = primaryChord(actionId);
  return chord ? ` (${chordLabel(chord)})` : '';
}

export function TabBar() {
  const tabs = useLayoutStore((state) => state.tabs);
  const activeTabId = useLayoutStore((state) => state.activeTabId);
  const activateTab = useLayoutStore((state) => state.activateTab);
  const panes = usePanesStore((state) => state.panes);
  const openSettings = useUiStore((state) => state.setSettingsOpen);

  const onAuxClick = (event: MouseEvent, tabId: string) => {
    if (event.button === 1) {
      event.preventDefault();
      void closeTabAsking(tabId);
    }
  };

  return (
    <div className="tab-bar" data-testid="tab-bar">
      <div className="tab-bar__tabs" role="tablist" aria-label="Terminal tabs">
        {tabs.map((tab) => {
          const active = tab.id === activeTabId;
          const title = tabTitle(tab, panes);
          const focused = panes[tab.focusedPaneId];
          const exited = panesOf(tab.root).every((paneId) => panes[paneId]?.exited);
          return (
            <div
              key={tab.id}
              role="tab"
              aria-selected={active}
              tabIndex={active ? 0 : -1}
              className={`tab${active ? ' tab--active' : ''}${exited ? ' tab--exited' : ''}`}
              data-testid="tab"
              data-tab-id={tab.id}
              data-active={active ? 'true' : 'false'}
              title={focused?.cwd || title}
              onClick={() => activateTab(tab.id)}
              onMouseDown={(event) => {
                // Middle button: no autoscroll cursor; the close happens on auxclick.
                if (event.button === 1) event.preventDefault();
              }}
              onAuxClick={(event) => onAuxClick(event, tab.id)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' || event.key === ' ') activateTab(tab.id);
              }}
            >
              <span className="tab__title">{title}</span>
              <button
                type="button"
                className="tab__close"
                aria-label={`Close tab ${title}`}
                title="Close tab"
                onClick={(event) => {
                  event.stopPropagation();
                  void closeTabAsking(tab.id);
                }}
              >
                ×
              </button>
            </div>
          );
        })}
        <button
          type="button"
          className="tab-bar__new"
          data-testid="new-tab"
          aria-label="New tab"
          title={`New tab${shortcutHint('tab.new')}`}
          onClick={() => void openNewTab()}
        >
          +
        </button>
      </div>
      <button
        type="button"
        className="tab-bar__settings"
        data-testid="open-settings"
        aria-label="Settings"
        title={`Settings${shortcutHint('settings.open')}`}
        onClick={() => openSettings(true)}
      >
        ⚙
      </button>
    </div>
  );
}

import type { TerminalState } from '../../../shared/blocks';
import { chordLabel } from '../actions/chords';
import { primaryChord } from '../actions/keybindings';
import { useConnectionStore } from '../app/connectionStore';
import { useHostStore } from '../app/hostStore';
import type { ConnectionStatus } from '../transport/engineConnection';
import { useUiStore } from '../app/uiStore';
import { CompanionStatus } from '../companion/CompanionStatus';
import { useLayoutStore } from '../layout/layoutStore';
import { effectiveFontSize, useSettingsStore } from '../settings/settingsStore';
import { usePanesStore } from '../terminal/panesStore';
import { AiPrefixStatus } from './AiPrefixStatus';
import { PaneWhere } from './PaneWhere';
import { StatusFlash } from './StatusFlash';

const STATE_LABELS: Record<TerminalState, string> = {
  PROMPT: 'at prompt',
  EXECUTING: 'running',
  IDLE: 'idle',
};

const CONNECTION_LABELS: Record<ConnectionStatus, string> = {
  connecting: 'connecting…',
  open: 'connected',
  reconnecting: 'reconnecting…',
  replaced: 'in use elsewhere',
  refused: 'no access token',
};

/** The focused pane at a glance: the remote `user@host` it is on (if it is), shell, directory, integration, state. */
export function StatusBar() {
  const paneId = useLayoutStore((state) => state.tabs.find((tab) => tab.id === state.activeTabId)?.focusedPaneId);
  const pane = usePanesStore((state) => (paneId !== undefined ? state.panes[paneId] : undefined));
  const connection = useConnectionStore((state) => state.status);
  const home = useHostStore((state) => state.home);
  const zoomSteps = useSettingsStore((state) => state.zoomSteps);
  const fontSize = useSettingsStore(effectiveFontSize);
  const openPalette = useUiStore((state) => state.setPaletteOpen);
  const paletteChord = primaryChord('palette.show');

  return (
    <footer className="status-bar" data-testid="status-bar">
      {pane ? (
        <>
          <PaneWhere pane={pane} home={home} />
          <span
            className={`status-bar__item status-bar__integration status-bar__integration--${pane.integration ? 'on' : 'off'}`}
            data-testid="status-integration"
            data-integration={pane.integration ? 'on' : 'off'}
          >
            {pane.integration ? 'integration on' : 'integration off — blocks use prompt heuristics'}
          </span>
          <span className="status-bar__item" data-testid="status-state" data-state={pane.exited ? 'EXITED' : pane.state}>
            {pane.exited ? `exited (${pane.exited.exitCode})` : STATE_LABELS[pane.state]}
          </span>
          <AiPrefixStatus integration={pane.integration} />
          <CompanionStatus paneId={paneId} />
        </>
      ) : (
        <span className="status-bar__item">No pane</span>
      )}
      <span className="status-bar__spacer" />
      <StatusFlash />
      {zoomSteps !== 0 && (
        <span className="status-bar__item" data-testid="status-zoom" title={`Reset with ${chordLabel(primaryChord('view.zoomReset') ?? '')}`}>
          {fontSize}px
        </span>
      )}
      <span className={`status-bar__item status-bar__connection status-bar__connection--${connection}`} data-testid="status-connection">
        {CONNECTION_LABELS[connection]}
      </span>
      <button type="button" className="status-bar__palette" onClick={() => openPalette(true)}>
        Commands{paletteChord ? ` ${chordLabel(paletteChord)}` : ''}
      </button>
    </footer>
  );
}

import { memo, useEffect, useLayoutEffect, useRef } from 'react';
import { useUiStore } from '../app/uiStore';
import { BlockLayer } from '../blocks/BlockLayer';
import { AutoBanner } from '../companion/AutoBanner';
import { useLayoutStore } from '../layout/layoutStore';
import { PrivateBadge } from '../history/PrivateBadge';
import { FindBar } from './FindBar';
import { PaneExitBar } from './PaneExitBar';
import { PaneNotices } from './PaneNotices';
import { paneSessions } from './paneSessions';
import { usePanesStore } from './panesStore';

interface PaneViewProps {
  paneId: number;
  /** Its tab is the active one. */
  visible: boolean;
  focused: boolean;
  /** Draw the focus ring (only useful with more than one pane in the tab). */
  showFocus: boolean;
}

/**
 * The frame around one pane's terminal. The terminal itself belongs to the PaneSession;
 * this component only lends it a place in the DOM, so re-renders never touch xterm.
 */
export const PaneView = memo(function PaneView({ paneId, visible, focused, showFocus }: PaneViewProps) {
  const meta = usePanesStore((state) => state.panes[paneId]);
  const findOpen = useUiStore((state) => state.findPaneId === paneId);
  const slotRef = useRef<HTMLDivElement>(null);

  useLayoutEffect(() => {
    const session = paneSessions.get(paneId);
    const slot = slotRef.current;
    if (!session || !slot) return;
    session.attach(slot);
    return () => session.detach(slot);
  }, [paneId]);

  useEffect(() => {
    paneSessions.get(paneId)?.setVisible(visible);
  }, [paneId, visible]);

  useEffect(() => {
    const session = paneSessions.get(paneId);
    const dialogOpen = useUiStore.getState().paletteOpen || useUiStore.getState().settingsOpen;
    if (visible && focused && session && !session.isFocused && !dialogOpen) session.focus();
  }, [paneId, visible, focused]);

  if (!meta) return <div className="pane pane--missing" />;

  // data-testid and data-pane-id are also how the Electron app finds a pane to capture
  // (src/main/desktop/electron/paneLocation.ts): keep them on this element.
  return (
    <div
      className={`pane${focused && showFocus ? ' pane--focused' : ''}`}
      data-testid="pane"
      data-pane-id={paneId}
      data-shell={meta.shellName}
      data-integration={meta.integration ? 'on' : 'off'}
      data-state={meta.state}
      data-focused={focused ? 'true' : 'false'}
      data-exited={meta.exited ? 'true' : undefined}
      onMouseDown={() => useLayoutStore.getState().focusPane(paneId)}
    >
      <AutoBanner paneId={paneId} />
      <PaneNotices paneId={paneId} notices={meta.notices} />
      <div className="pane__body">
        <div className="pane__terminal" ref={slotRef} />
        <BlockLayer paneId={paneId} />
        {findOpen && <FindBar paneId={paneId} />}
        <PrivateBadge paneId={paneId} />
      </div>
      {meta.exited && <PaneExitBar paneId={paneId} message={meta.exited.message} />}
    </div>
  );
});

import { memo, useEffect, useLayoutEffect, useRef, type MouseEvent } from 'react';
import { createPortal } from 'react-dom';
import { useUiStore } from '../app/uiStore';
import { BlockLayer } from '../blocks/BlockLayer';
import { AutoBanner } from '../companion/AutoBanner';
import { useLayoutStore } from '../layout/layoutStore';
import { PrivateBadge } from '../history/PrivateBadge';
import { FindBar } from './FindBar';
import { PaneExitBar } from './PaneExitBar';
import { PaneMenu } from './PaneMenu';
import { usePaneMenu, type MenuPlace } from './paneMenuStore';
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
  const menuAt = usePaneMenu((state) => (state.open?.paneId === paneId ? state.open.place : undefined));
  const closeMenu = usePaneMenu((state) => state.hide);

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
      <div className="pane__body" onContextMenu={(event) => openMenu(paneId, event)}>
        <div className="pane__terminal" ref={slotRef} />
        <BlockLayer paneId={paneId} />
        {findOpen && <FindBar paneId={paneId} />}
        <PrivateBadge paneId={paneId} />
      </div>
      {meta.exited && <PaneExitBar paneId={paneId} message={meta.exited.message} />}
      {menuAt && createPortal(<PaneMenu paneId={paneId} place={menuAt} onClose={closeMenu} />, document.body)}
    </div>
  );
});

/**
 * Opens the pane's menu at the pointer. A program that reads the mouse (vim with `mouse=a`,
 * htop) gets the right button, as in other terminals; Shift+right-click opens the menu over it.
 * The browser's own menu never shows over the terminal. (The Menu key and Shift+F10 are the
 * `pane.menu` action's.)
 */
function openMenu(paneId: number, event: MouseEvent): void {
  // The find bar's field and the block menu keep their own (the browser's) menu.
  if ((event.target as HTMLElement).closest('.block-menu, .find-bar, [role="dialog"]')) return;
  event.preventDefault();
  const session = paneSessions.get(paneId);
  if (!event.shiftKey && session && session.terminal.modes.mouseTrackingMode !== 'none') return;
  const place: MenuPlace = { x: event.clientX, y: event.clientY };
  usePaneMenu.getState().show(paneId, place);
}

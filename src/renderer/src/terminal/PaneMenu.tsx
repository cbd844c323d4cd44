import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { appActions } from '../actions/appActions';
import { chordLabel } from '../actions/chords';
import { primaryChord } from '../actions/keybindings';
import { usePrivatePanes } from '../history/privateMode';
import type { MenuPlace } from './paneMenuStore';
import { paneSessions } from './paneSessions';

/** The pane's actions, in groups; ids that the action list does not have are left out. */
const GROUPS: string[][] = [
  ['terminal.copy', 'terminal.paste', 'terminal.selectAll'],
  ['terminal.find', 'history.search', 'terminal.clear'],
  ['pane.splitRight', 'pane.splitDown'],
  ['pane.privateMode'],
  ['pane.restart', 'pane.close'],
];

/** Shorter names than the palette's, where the palette's explain more than a menu needs. */
const LABELS: Record<string, string> = {
  'terminal.copy': 'Copy',
  'terminal.find': 'Find…',
  'history.search': 'Search History…',
  'pane.privateMode': 'Private Mode',
  'pane.restart': 'Restart Shell',
};

/** Actions that put the keyboard somewhere themselves; after the others the pane gets it back. */
const PLACE_FOCUS_THEMSELVES = new Set(['terminal.find', 'history.search', 'pane.close']);

/** A menu must not open off screen: it is moved left or up by what would not fit. */
const EDGE_PX = 4;

/**
 * The pane's context menu (right-click, the Menu key, Shift+F10): copy and paste, find, the
 * history, splits, private mode, restart and close. Each item runs the same action as the
 * palette and shows its shortcut. Arrow keys move, Enter runs, Esc or a click elsewhere closes.
 */
export function PaneMenu({ paneId, place, onClose }: { paneId: number; place: MenuPlace; onClose: () => void }) {
  const menuRef = useRef<HTMLDivElement>(null);
  const privateOn = usePrivatePanes((state) => state.panes[paneId] === true);
  const [position, setPosition] = useState(place);
  const hasSelection = paneSessions.get(paneId)?.terminal.hasSelection() ?? false;

  useLayoutEffect(() => {
    const menu = menuRef.current;
    if (!menu) return;
    const { width, height } = menu.getBoundingClientRect();
    setPosition({
      x: Math.max(EDGE_PX, Math.min(place.x, window.innerWidth - width - EDGE_PX)),
      y: Math.max(EDGE_PX, Math.min(place.y, window.innerHeight - height - EDGE_PX)),
    });
    menu.querySelector<HTMLButtonElement>('button:not([disabled])')?.focus();
  }, [place]);

  useEffect(() => {
    const closeOutside = (event: PointerEvent) => {
      if (!menuRef.current?.contains(event.target as Node)) onClose();
    };
    const closeNow = () => onClose();
    document.addEventListener('pointerdown', closeOutside, true);
    window.addEventListener('resize', closeNow);
    window.addEventListener('blur', closeNow);
    return () => {
      document.removeEventListener('pointerdown', closeOutside, true);
      window.removeEventListener('resize', closeNow);
      window.removeEventListener('blur', closeNow);
    };
  }, [onClose]);

  const close = (refocus: boolean) => {
    onClose();
    if (refocus) paneSessions.get(paneId)?.focus();
  };

  const run = (actionId: string) => {
    const action = appActions.find((candidate) => candidate.id === actionId);
    close(!PLACE_FOCUS_THEMSELVES.has(actionId));
    action?.run();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const buttons = [...(menuRef.current?.querySelectorAll<HTMLButtonElement>('button:not([disabled])') ?? [])];
    const index = buttons.findIndex((button) => button === document.activeElement);
    const move = (to: number) => {
      event.preventDefault();
      buttons[(to + buttons.length) % buttons.length]?.focus();
    };
    if (event.key === 'Escape') {
      event.preventDefault();
      close(true);
    } else if (event.key === 'ArrowDown') move(index + 1);
    else if (event.key === 'ArrowUp') move(index - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(buttons.length - 1);
    else if (event.key === 'Tab') event.preventDefault();
  };

  const groups = GROUPS.map((ids) => ids.filter((id) => appActions.some((action) => action.id === id))).filter((ids) => ids.length > 0);

  return (
    <div
      className="pane-menu"
      ref={menuRef}
      role="menu"
      aria-label="Pane"
      data-testid="pane-menu"
      style={{ left: position.x, top: position.y }}
      onKeyDown={onKeyDown}
      onContextMenu={(event) => event.preventDefault()}
    >
      {groups.map((ids, groupIndex) => (
        <div className="pane-menu__group" role="group" key={ids[0]}>
          {groupIndex > 0 && <div className="pane-menu__separator" role="separator" />}
          {ids.map((id) => {
            const action = appActions.find((candidate) => candidate.id === id)!;
            const disabled = (id === 'terminal.copy' && !hasSelection) || (action.enabled ? !action.enabled() : false);
            const chord = primaryChord(id);
            const checkable = id === 'pane.privateMode';
            return (
              <button
                type="button"
                key={id}
                role={checkable ? 'menuitemcheckbox' : 'menuitem'}
                aria-checked={checkable ? privateOn : undefined}
                data-action={id}
                disabled={disabled}
                onClick={() => run(id)}
              >
                <span className="pane-menu__check" aria-hidden="true">
                  {checkable && privateOn ? '✓' : ''}
                </span>
                <span className="pane-menu__label">{LABELS[id] ?? action.title}</span>
                <span className="pane-menu__chord">{chord ? chordLabel(chord) : ''}</span>
              </button>
            );
          })}
        </div>
      ))}
    </div>
  );
}

import { memo, useCallback, useEffect, useRef, useState } from 'react';
import { useUiStore } from '../app/uiStore';
import { startBlockDrag } from '../ai/blockDrag';
import { useCompanionStore } from '../companion/companionStore';
import { paneSessions } from '../terminal/paneSessions';
import { blockHost, shortHost } from '../remote/remotePlace';
import { BlockMenu } from './BlockMenu';
import { blockStatus, describeBlock, formatDuration } from './blockStatus';
import { useBlocksStore } from './blocksStore';
import { rowLabelCells } from './durationPlacement';

const CLOSE_DELAY_MS = 250;
/** Commands quicker than this show their duration only on hover; slower ones on the command row. */
const SHOW_DURATION_FROM_MS = 1_000;

function shownDuration(block: { startedAt: number; endedAt?: number }): string | undefined {
  if (block.endedAt === undefined) return undefined;
  const took = block.endedAt - block.startedAt;
  return took >= SHOW_DURATION_FROM_MS ? formatDuration(took) : undefined;
}

/**
 * A block's mark: a coloured bar in the gutter along its rows (blue while running, green,
 * red with a tinted command row on failure; dashed, with `user@host` on the command row, for a
 * block of a remote shell), and its action menu on hover or keyboard.
 * The data-* attributes are a stable contract for tests and tools.
 */
export const BlockMark = memo(function BlockMark({ paneId, blockId }: { paneId: number; blockId: string }) {
  const block = useBlocksStore((state) => state.byId[blockId]);
  const selected = useBlocksStore((state) => state.selectedByPane[paneId] === blockId);
  const hint = useCompanionStore((state) => (state.hints[paneId]?.blockId === blockId ? state.hints[paneId] : undefined));
  const menuRequest = useUiStore((state) => (state.blockMenuRequest?.blockId === blockId ? state.blockMenuRequest.serial : 0));
  const [menuOpen, setMenuOpen] = useState(false);
  const [focusMenu, setFocusMenu] = useState(0);
  const closeTimer = useRef(0);
  const hovered = useRef(false);

  const rootRef = useRef<HTMLDivElement | null>(null);
  const elementRef = useCallback(
    (element: HTMLDivElement | null) => {
      rootRef.current = element;
      paneSessions.get(paneId)?.blocks.positioner.register(blockId, element);
    },
    [paneId, blockId],
  );

  useEffect(() => {
    if (menuRequest === 0) return;
    setMenuOpen(true);
    setFocusMenu(menuRequest);
  }, [menuRequest]);

  useEffect(() => () => window.clearTimeout(closeTimer.current), []);

  if (!block) return null;
  const status = blockStatus(block);
  const host = blockHost(block);
  const duration = shownDuration(block);

  const open = () => {
    hovered.current = true;
    window.clearTimeout(closeTimer.current);
    setMenuOpen(true);
  };
  const closeSoon = () => {
    hovered.current = false;
    window.clearTimeout(closeTimer.current);
    closeTimer.current = window.setTimeout(() => {
      // Keyboard focus inside the menu would be lost with it; give it back to the terminal.
      if (rootRef.current?.contains(document.activeElement)) paneSessions.get(paneId)?.focus();
      setMenuOpen(false);
    }, CLOSE_DELAY_MS);
  };
  const closeMenu = () => {
    setMenuOpen(false);
    useUiStore.getState().requestBlockMenu(undefined);
  };
  const closeToTerminal = () => {
    closeMenu();
    paneSessions.get(paneId)?.focus();
  };

  return (
    <div
      ref={elementRef}
      className={`block block--${status}${host ? ' block--remote' : ''}${selected ? ' block--selected' : ''}${menuOpen ? ' block--menu-open' : ''}`}
      data-testid="block"
      data-block-id={block.id}
      data-command={block.command}
      data-cwd={block.cwd}
      data-exit-code={block.exitCode !== undefined ? String(block.exitCode) : undefined}
      data-trusted={block.trusted ? 'true' : 'false'}
      data-host={host}
      data-label-cells={host ? rowLabelCells(shortHost(host)) : undefined}
      data-status={status}
      data-selected={selected ? 'true' : undefined}
      onMouseEnter={open}
      onMouseLeave={closeSoon}
      onBlur={(event) => {
        // A menu opened from the keyboard closes when focus moves elsewhere.
        const next = event.relatedTarget;
        if (!hovered.current && !(next instanceof Node && event.currentTarget.contains(next))) {
          setMenuOpen(false);
          useUiStore.getState().requestBlockMenu(undefined);
        }
      }}
      onMouseDown={(event) => {
        event.stopPropagation();
        // A drag (onto the AI panel) starts from mousedown's default action: let it.
        if (event.target instanceof Element && event.target.closest('[draggable="true"]')) return;
        // Clicking a mark or its menu leaves keyboard focus in the terminal.
        event.preventDefault();
      }}
      onDragStart={(event) => startBlockDrag(event.dataTransfer, block)}
      onDragEnd={(event) => {
        // Dropped nowhere useful: the terminal gets its keyboard focus back.
        if (event.dataTransfer.dropEffect === 'none' && rootRef.current?.contains(document.activeElement)) {
          paneSessions.get(paneId)?.focus();
        }
      }}
    >
      {status === 'failure' && <div className="block__tint" aria-hidden="true" />}
      {(host || duration) && (
        <div className="block__row-label" aria-hidden="true">
          {host && (
            <span className="block__host" data-testid="block-host">
              {shortHost(host)}
            </span>
          )}
          {duration && (
            <span className="block__duration" data-testid="block-duration">
              {duration}
            </span>
          )}
        </div>
      )}
      <div
        className="block__gutter"
        title={describeBlock(block)}
        role="button"
        tabIndex={-1}
        draggable={block.command !== ''}
        aria-label={`Command block: ${block.command || 'unknown command'}`}
        onClick={() => {
          setMenuOpen(true);
          setFocusMenu((value) => value + 1);
        }}
      >
        {status === 'running' && <span className="block__gutter-flow" aria-hidden="true" />}
      </div>
      {hint && <div className="block__hint-badge" data-testid="companion-badge" data-pattern={hint.pattern} title={hint.text.replace(/`/g, '')} aria-label={hint.text.replace(/`/g, '')} />}
      {menuOpen && (
        <BlockMenu block={block} focusRequest={focusMenu} onDone={closeToTerminal} onLeave={closeMenu} />
      )}
    </div>
  );
});

import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { Block } from '../../../shared/blocks';
import { startBlockDrag } from '../ai/blockDrag';
import { askAiAboutBlock } from '../ai/panelControl';
import { usePanesStore } from '../terminal/panesStore';
import { copyBlockCommand, copyBlockOutput, rerunBlock } from './blockActions';
import { blockStatus, formatDuration } from './blockStatus';

interface BlockMenuProps {
  block: Block;
  /** Non-zero: move keyboard focus into the menu (each new value focuses again). */
  focusRequest: number;
  /** Closes the menu and gives the terminal its focus back. */
  onDone: () => void;
  /** Closes the menu; focus went somewhere on purpose (the AI input). */
  onLeave: () => void;
}

/**
 * Copy command, Copy output, Rerun, Ask AI. Arrow keys move, Esc leaves. The summary is a
 * handle: drag it (or the gutter mark) onto the AI panel to attach the block.
 */
export function BlockMenu({ block, focusRequest, onDone, onLeave }: BlockMenuProps) {
  const menuRef = useRef<HTMLDivElement>(null);
  const [feedback, setFeedback] = useState<string | undefined>();
  const paneState = usePanesStore((state) => state.panes[block.paneId]?.state);
  const paneExited = usePanesStore((state) => state.panes[block.paneId]?.exited !== undefined);
  const rerunAllowed = block.command !== '' && !paneExited && (paneState === 'PROMPT' || paneState === 'IDLE');

  useEffect(() => {
    if (focusRequest > 0) menuRef.current?.querySelector<HTMLButtonElement>('button:not([disabled])')?.focus();
  }, [focusRequest]);

  useEffect(() => {
    if (!feedback) return;
    const timer = window.setTimeout(() => setFeedback(undefined), 1_500);
    return () => window.clearTimeout(timer);
  }, [feedback]);

  const run = (action: () => Promise<boolean>, done: string) => {
    action()
      .then((ok) => setFeedback(ok ? done : 'Could not copy'))
      .catch((error: unknown) => setFeedback(error instanceof Error ? error.message : 'Failed'));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const buttons = [...(menuRef.current?.querySelectorAll<HTMLButtonElement>('button') ?? [])];
    const index = buttons.findIndex((button) => button === document.activeElement);
    if (event.key === 'Escape') {
      event.preventDefault();
      onDone();
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowRight') {
      event.preventDefault();
      buttons[(index + 1) % buttons.length]?.focus();
    } else if (event.key === 'ArrowUp' || event.key === 'ArrowLeft') {
      event.preventDefault();
      buttons[(index - 1 + buttons.length) % buttons.length]?.focus();
    }
  };

  const status = blockStatus(block);
  const summary =
    status === 'running'
      ? 'running'
      : `${status === 'unknown' ? 'finished' : `exit ${block.exitCode}`} · ${formatDuration((block.endedAt ?? block.startedAt) - block.startedAt)}`;

  return (
    <div className="block-menu" ref={menuRef} role="menu" data-testid="block-menu" onKeyDown={onKeyDown}>
      <span
        className="block-menu__summary"
        data-testid="block-duration"
        draggable={block.command !== ''}
        title={block.command !== '' ? 'Drag onto the AI panel to attach this command' : undefined}
        onDragStart={(event) => {
          event.stopPropagation();
          startBlockDrag(event.dataTransfer, block);
        }}
      >
        {feedback ?? summary}
      </span>
      <button type="button" role="menuitem" onClick={() => run(() => copyBlockCommand(block), 'Command copied')}>
        Copy command
      </button>
      <button type="button" role="menuitem" onClick={() => run(() => copyBlockOutput(block), 'Output copied')}>
        Copy output
      </button>
      <button
        type="button"
        role="menuitem"
        disabled={!rerunAllowed}
        title={rerunAllowed ? 'Type this command again at the prompt' : 'Available when the shell is at a prompt'}
        onClick={() => {
          if (rerunBlock(block)) onDone();
        }}
      >
        Rerun
      </button>
      <button
        type="button"
        role="menuitem"
        title="Attach this command to a message for the AI"
        data-testid="block-ask-ai"
        onClick={() => {
          askAiAboutBlock(block);
          onLeave();
        }}
      >
        Ask AI
      </button>
    </div>
  );
}

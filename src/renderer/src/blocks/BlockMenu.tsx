import { useEffect, useRef, type KeyboardEvent } from 'react';
import type { Block } from '../../../shared/blocks';
import { startBlockDrag } from '../ai/blockDrag';
import { askAiAboutBlock, summarizeInPanel } from '../ai/panelControl';
import { useUiStore } from '../app/uiStore';
import { usePanesStore } from '../terminal/panesStore';
import { copyBlockCommand, copyBlockOutput, rerunBlock } from './blockActions';
import { blockStatus, formatDuration, outcomeLabel } from './blockStatus';

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
 * Copy command, Copy output, Rerun, Ask AI, Summarize output. Arrow keys move, Esc leaves. The summary is a
 * handle: drag it (or the gutter mark) onto the AI panel to attach the block. An action
 * closes the menu and gives the terminal its focus back (the next keys are for the shell);
 * a copy is confirmed in the status bar.
 */
export function BlockMenu({ block, focusRequest, onDone, onLeave }: BlockMenuProps) {
  const menuRef = useRef<HTMLDivElement>(null);
  const paneState = usePanesStore((state) => state.panes[block.paneId]?.state);
  const paneExited = usePanesStore((state) => state.panes[block.paneId]?.exited !== undefined);
  const rerunAllowed = block.command !== '' && !paneExited && (paneState === 'PROMPT' || paneState === 'IDLE');

  useEffect(() => {
    if (focusRequest > 0) menuRef.current?.querySelector<HTMLButtonElement>('button:not([disabled])')?.focus();
  }, [focusRequest]);

  const copy = (action: () => Promise<boolean>, done: string) => {
    onDone();
    const flash = useUiStore.getState().flashStatus;
    action()
      .then((ok) => flash(ok ? done : 'Could not copy: the clipboard refused'))
      .catch((error: unknown) => flash(`Could not copy: ${error instanceof Error ? error.message : String(error)}`));
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

  const summary =
    blockStatus(block) === 'running' ? 'running' : `${outcomeLabel(block)} · ${formatDuration((block.endedAt ?? block.startedAt) - block.startedAt)}`;

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
        {summary}
      </span>
      <button type="button" role="menuitem" onClick={() => copy(() => copyBlockCommand(block), 'Command copied')}>
        Copy command
      </button>
      <button type="button" role="menuitem" onClick={() => copy(() => copyBlockOutput(block), 'Output copied')}>
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
      <button
        type="button"
        role="menuitem"
        title="Summarise what this command printed (a small model, or local filtering), in the AI panel"
        data-action="summarize"
        data-testid="block-summarize"
        onClick={() => {
          summarizeInPanel(block);
          onDone();
        }}
      >
        Summarize output
      </button>
    </div>
  );
}

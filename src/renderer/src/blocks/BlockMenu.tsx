import { useEffect, useRef, type KeyboardEvent } from 'react';
import type { Block } from '../../../shared/blocks';
import { startBlockDrag } from '../ai/blockDrag';
import { askAiAboutBlock, summarizeInPanel } from '../ai/panelControl';
import { useUiStore } from '../app/uiStore';
import { usePanesStore } from '../terminal/panesStore';
import { blockHost, blockHostHeading } from '../remote/remotePlace';
import { copyBlockCommand, copyBlockOutput, rerunBlock, rerunRefusal } from './blockActions';
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
 * Copy command, Copy output, Rerun, Ask AI, Summarize output; a remote block's host on top
 * (Rerun only where the pane is on the host the block ran on). Arrow keys move, Esc leaves. The summary is a
 * handle: drag it (or the gutter mark) onto the AI panel to attach the block. An action
 * closes the menu and gives the terminal its focus back (the next keys are for the shell);
 * a copy is confirmed in the status bar.
 */
export function BlockMenu({ block, focusRequest, onDone, onLeave }: BlockMenuProps) {
  const menuRef = useRef<HTMLDivElement>(null);
  const pane = usePanesStore((state) => state.panes[block.paneId]);
  const rerunReason = rerunRefusal(block, pane);
  const hostHeading = blockHostHeading(block);

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
      {hostHeading && (
        <span className="block-menu__host" data-testid="block-menu-host" title={`Ran in ${blockHost(block)}:${block.cwd || '?'}, over ssh`}>
          {hostHeading}
        </span>
      )}
      <button type="button" role="menuitem" onClick={() => copy(() => copyBlockCommand(block), 'Command copied')}>
        Copy command
      </button>
      <button type="button" role="menuitem" onClick={() => copy(() => copyBlockOutput(block), 'Output copied')}>
        Copy output
      </button>
      <button
        type="button"
        role="menuitem"
        data-testid="block-rerun"
        disabled={rerunReason !== undefined}
        title={rerunReason ?? 'Type this command again at the prompt'}
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

import type { Block } from '../../../shared/blocks';
import { engine } from '../app/engine';
import { writeClipboard } from '../platform/clipboard';
import { rerunElsewhere } from '../remote/remotePlace';
import { paneSessions } from '../terminal/paneSessions';
import { usePanesStore, type PaneMeta } from '../terminal/panesStore';

export function copyBlockCommand(block: Block): Promise<boolean> {
  return writeClipboard(block.command);
}

export async function copyBlockOutput(block: Block): Promise<boolean> {
  const { text } = await engine().request('block.output', { blockId: block.id });
  return writeClipboard(text);
}

/** Typing a command into a pane is only safe at a prompt, never into a running program. */
export function canRerun(paneId: number): boolean {
  return atPrompt(usePanesStore.getState().panes[paneId]);
}

function atPrompt(pane: PaneMeta | undefined): boolean {
  return pane !== undefined && !pane.exited && (pane.state === 'PROMPT' || pane.state === 'IDLE');
}

/** Why the block's command cannot be typed again in its pane now, or undefined when it can. */
export function rerunRefusal(block: Block, pane: PaneMeta | undefined): string | undefined {
  if (!block.command) return 'The command is not known';
  if (!atPrompt(pane)) return 'Available when the shell is at a prompt';
  // Typed at the pane's prompt, it would run on whatever host the pane is on now.
  return rerunElsewhere(block, pane?.remote);
}

/** Whether the block's command can be typed again in its pane now (see rerunRefusal). */
export function canRerunBlock(block: Block): boolean {
  return rerunRefusal(block, usePanesStore.getState().panes[block.paneId]) === undefined;
}

export function rerunBlock(block: Block): boolean {
  if (!canRerunBlock(block)) return false;
  const session = paneSessions.get(block.paneId);
  if (!session) return false;
  session.typeText(`${block.command}\r`);
  session.focus();
  return true;
}

import type { Block } from '../../../shared/blocks';
import { engine } from '../app/engine';
import { writeClipboard } from '../platform/clipboard';
import { paneSessions } from '../terminal/paneSessions';
import { usePanesStore } from '../terminal/panesStore';

export function copyBlockCommand(block: Block): Promise<boolean> {
  return writeClipboard(block.command);
}

export async function copyBlockOutput(block: Block): Promise<boolean> {
  const { text } = await engine().request('block.output', { blockId: block.id });
  return writeClipboard(text);
}

/** Typing a command into a pane is only safe at a prompt, never into a running program. */
export function canRerun(paneId: number): boolean {
  const pane = usePanesStore.getState().panes[paneId];
  return pane !== undefined && !pane.exited && (pane.state === 'PROMPT' || pane.state === 'IDLE');
}

export function rerunBlock(block: Block): boolean {
  if (!block.command || !canRerun(block.paneId)) return false;
  const session = paneSessions.get(block.paneId);
  if (!session) return false;
  session.typeText(`${block.command}\r`);
  session.focus();
  return true;
}

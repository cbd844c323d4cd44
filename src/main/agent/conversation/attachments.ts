import type { AttachmentView } from '../../../shared/agent';
import type { Block } from '../../../shared/blocks';
import type { AgentPane } from '../agentPane';
import { blockForModel } from '../blockForModel';

export interface Attachment {
  /** The chip on the user's message. */
  view: AttachmentView;
  /** What the model reads. */
  content: string;
}

/** Blocks attached to a message (ids like `p1b12`); ones whose pane or block is gone are left out. */
export async function attachBlocks(blockIds: string[], pane: (paneId: number) => AgentPane | undefined): Promise<Attachment[]> {
  const attachments = [];
  for (const blockId of blockIds) {
    const paneId = Number(/^p(\d+)b\d+$/.exec(blockId)?.[1]);
    const owner = Number.isFinite(paneId) ? pane(paneId) : undefined;
    const block = owner?.blocks().find((candidate) => candidate.id === blockId);
    if (!owner || !block) continue;
    const output = await owner.outputOf(blockId);
    attachments.push({
      view: attachmentView(block, output?.text ?? ''),
      content: `The user attached this command block:\n${blockForModel(block, output)}`,
    });
  }
  return attachments;
}

function attachmentView(block: Block, output: string): AttachmentView {
  const lines = output.split('\n').filter((line) => line.trim() !== '');
  return { blockId: block.id, command: block.command, exitCode: block.exitCode, cwd: block.cwd, excerpt: lines.slice(-5).join('\n') };
}

import { randomUUID } from 'node:crypto';
import type { BlockSummaryItem } from '../../../shared/agent';
import { fenceOutput } from '../../context/terminalHistory';
import { scrubSecrets } from '../../safety/secretScrubber';
import type { AgentPane } from '../agentPane';
import type { Conversation } from '../conversation/conversation';
import { OUTPUT_TYPE_LABELS } from './outputType';
import type { Summarizer } from './summarizer';

/**
 * The block menu's "Summarize output": an item in the panel that says which block it is about,
 * filled in when the summary is ready, and the summary queued for the model's next request
 * (so "how do I fix that?" has its subject).
 */
export async function summarizeBlockIntoPanel(pane: AgentPane, blockId: string, summarizer: Summarizer, conversation: Conversation): Promise<void> {
  const block = pane.blocks().find((candidate) => candidate.id === blockId);
  if (!block) throw new Error(`There is no block ${blockId} in pane ${pane.id} to summarise.`);
  const command = scrubSecrets(block.command).text;
  const item: BlockSummaryItem = {
    id: randomUUID(),
    role: 'block-summary',
    blockId,
    paneId: pane.id,
    command,
    exitCode: block.exitCode,
    state: 'working',
    text: '',
    at: Date.now(),
  };
  const owner = conversation.id;
  conversation.add(item);
  let summary;
  try {
    const output = await pane.outputOf(blockId);
    if (!output) {
      Object.assign(item, { state: 'done', source: { kind: 'as-is', reason: 'its output is no longer kept (it scrolled out of the scrollback)' } });
      conversation.changed();
      return;
    }
    summary = await summarizer.summarize({ blockId, command, exitCode: block.exitCode, finished: block.endedAt !== undefined, text: output.text });
  } catch (error) {
    // The error card says what went wrong; no item is left "summarising…".
    conversation.remove(item.id);
    conversation.changed();
    throw error;
  }
  Object.assign(item, { state: 'done', text: summary.text, source: summary.source, outputType: OUTPUT_TYPE_LABELS[summary.outputType], lineCount: summary.lineCount });
  conversation.changed();
  if (conversation.id !== owner) return;
  const by = summary.source.kind === 'model' ? `a summary by ${summary.source.model}` : summary.source.kind === 'local' ? 'local filtering of its output' : 'its output';
  conversation.queue([{ type: 'text', text: `(The user had block ${blockId} \`${command}\` summarised in the panel; they saw ${by}:)\n${fenceOutput(blockId, summary.text || '(no output)')}` }]);
}

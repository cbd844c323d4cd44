import type { AgentPane } from '../agent/agentPane';
import { failuresForModel, recentFailures } from './whatJustHappened';

/** What goes to the agent for a `?? ` line: the message, the blocks attached, and a hint for the model only. */
export interface QuickQuestion {
  text: string;
  attachments: string[];
  hint: string;
}

const QUICK = '(A quick question typed at the prompt: answer briefly.)';

/**
 * `?? question` asks with the pane's last block attached. A bare `??` after failures is
 * "help with what just happened": their errors go along already fetched; after a success it
 * asks about the last command.
 */
export async function quickQuestion(pane: AgentPane | undefined, question: string): Promise<QuickQuestion> {
  const blocks = pane?.blocks() ?? [];
  const failed = question ? [] : recentFailures(blocks);
  if (pane && failed.length > 0) {
    const text = failed.length === 1 ? 'What happened with this command? Say how to fix it.' : 'What happened with these commands? Say how to fix it.';
    return { text, attachments: [], hint: `${QUICK}\n\n${await failuresForModel(pane, failed)}` };
  }
  const last = blocks.filter((block) => block.endedAt !== undefined).at(-1);
  const text = question || 'What happened with this command? Explain briefly, and say how to fix it if it failed.';
  return { text, attachments: last ? [last.id] : [], hint: QUICK };
}

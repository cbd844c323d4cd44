import { blockFailed, type Block } from '../../shared/blocks';
import { agree } from '../../shared/countWords';
import type { AgentPane } from '../agent/agentPane';
import { runTerminalHistory } from '../context/terminalHistory';
import { scrubSecrets } from '../safety/secretScrubber';

/** The failures since the last success that a bare `??` sends, newest last. */
export const MAX_FAILED_BLOCKS = 3;
/** Lines of errors per failed block: enough to see the error, few enough to stay cheap. */
const LINES_PER_BLOCK = 60;

/**
 * The pane's most recent failures — the finished blocks after its last success that exited
 * non-zero (a pager the user quit is no failure), at most MAX_FAILED_BLOCKS — or none when
 * the last finished command succeeded.
 */
export function recentFailures(blocks: Block[]): Block[] {
  const failed: Block[] = [];
  for (const block of [...blocks].reverse()) {
    if (block.endedAt === undefined || block.exitCode === undefined) continue;
    if (!blockFailed(block)) break;
    failed.unshift(block);
    if (failed.length === MAX_FAILED_BLOCKS) break;
  }
  return failed;
}

/**
 * What a bare `??` gives the model about the pane's recent failures: each block's error
 * lines, read as the `terminal_history` tool reads them with `errors_only` (scrubbed of
 * secrets, fenced as data), so the model can answer without a tool call first.
 */
export async function failuresForModel(pane: AgentPane, failed: Block[]): Promise<string> {
  const parts: string[] = [];
  for (const block of failed) {
    parts.push(
      await runTerminalHistory(
        { blockId: block.id, paneId: pane.id, detail: 'errors_only', maxLines: LINES_PER_BLOCK },
        { blocks: () => pane.blocks(), output: (blockId) => pane.outputOf(blockId) },
      ),
    );
  }
  const count = failed.length;
  const which = count === 1 ? 'The last command in pane' : `The last ${count} commands in pane`;
  const errors = `${agree(count, 'Its', 'Their')} error lines, as terminal_history gives them with detail "errors_only"`;
  // The tool scrubs output; the command lines in its headers are scrubbed here too.
  return scrubSecrets(`${which} ${pane.id} failed. ${errors}:\n\n${parts.join('\n\n')}`).text;
}

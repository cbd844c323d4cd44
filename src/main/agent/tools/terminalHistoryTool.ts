import { runTerminalHistory, TERMINAL_HISTORY_TOOL } from '../../context/terminalHistory';
import type { ImmediateTool } from './agentTool';

/** `terminal_history`: what earlier command blocks printed (the reading itself is context/terminalHistory.ts). */
export const terminalHistoryTool: ImmediateTool = {
  definition: TERMINAL_HISTORY_TOOL,
  approval: 'none',
  async run(input, context) {
    const args = (input ?? {}) as Record<string, unknown>;
    const paneId = typeof args.paneId === 'number' ? args.paneId : context.defaultPaneId;
    const pane = paneId !== undefined ? context.pane(paneId) : undefined;
    if (!pane) return { content: `There is no pane ${paneId ?? ''} to read history from.`, isError: true, summary: 'terminal history: no pane' };
    const content = await runTerminalHistory(input, { blocks: () => pane.blocks(), output: (blockId) => pane.outputOf(blockId) });
    return { content, isError: false, summary: `read terminal history (${describeSelector(args)})` };
  },
};

function describeSelector(args: Record<string, unknown>): string {
  const detail = typeof args.detail === 'string' ? args.detail : 'summary';
  if (typeof args.search === 'string') return `search "${args.search}", ${detail}`;
  if (typeof args.index === 'number') return `block ${args.index}, ${detail}`;
  if (typeof args.blockId === 'string') return `${args.blockId}, ${detail}`;
  return `last ${typeof args.last === 'number' ? args.last : 5}, ${detail}`;
}

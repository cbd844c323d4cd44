import { runTerminalHistory, TERMINAL_HISTORY_TOOL } from '../../context/terminalHistory';
import type { SummarySource } from '../summarizer/summarizer';
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
    const summarizer = context.summarizer;
    const sources: SummarySource[] = [];
    const content = await runTerminalHistory(input, {
      blocks: () => pane.blocks(),
      output: (blockId) => pane.outputOf(blockId),
      summarize: summarizer
        ? async (request) => {
            const summary = await summarizer.summarize(request);
            sources.push(summary.source);
            return summary;
          }
        : undefined,
    });
    return { content, isError: false, summary: `read terminal history (${describeSelector(args)})${describeSummaries(sources)}` };
  },
};

function describeSelector(args: Record<string, unknown>): string {
  const detail = typeof args.detail === 'string' ? args.detail : 'summary';
  if (typeof args.search === 'string') return `search "${args.search}", ${detail}`;
  if (typeof args.index === 'number') return `block ${args.index}, ${detail}`;
  if (typeof args.blockId === 'string') return `${args.blockId}, ${detail}`;
  return `last ${typeof args.last === 'number' ? args.last : 5}, ${detail}`;
}

/** " · summarised by claude-haiku-4-5", " · local summary: no model is connected …" for the panel's line. */
function describeSummaries(sources: SummarySource[]): string {
  const parts: string[] = [];
  const models = [...new Set(sources.flatMap((source) => (source.kind === 'model' ? [source.model] : [])))];
  if (models.length > 0) parts.push(`summarised by ${models.join(', ')}`);
  const local = sources.find((source) => source.kind === 'local');
  if (local) parts.push(`local summary: ${local.reason}`);
  return parts.map((part) => ` · ${part}`).join('');
}

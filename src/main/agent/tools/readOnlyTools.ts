import { runTerminalHistory, TERMINAL_HISTORY_TOOL } from '../../context/terminalHistory';
import type { AgentPane } from '../agentPane';
import { scrubSecrets } from '../../safety/secretScrubber';
import type { ToolDefinition } from '../backends/modelBackend';
import { LIST_DIRECTORY_TOOL, READ_FILE_TOOL, listDirectoryTool, readFileTool } from './fileTools';

/** Tools that only read: they run without asking, and their results are scrubbed like all else. */
export const READ_ONLY_TOOLS: ToolDefinition[] = [TERMINAL_HISTORY_TOOL, READ_FILE_TOOL, LIST_DIRECTORY_TOOL];

export interface ReadOnlyToolContext {
  cwd: string;
  homeDir?: string;
  /** The policy's say on reading a path: the rule that refuses it, if one does. */
  refuse?: (path: string) => string | undefined;
  pane(paneId: number): AgentPane | undefined;
  defaultPaneId: number | undefined;
}

export async function runReadOnlyTool(
  name: string,
  input: unknown,
  context: ReadOnlyToolContext,
): Promise<{ content: string; isError: boolean; summary: string }> {
  const args = (input ?? {}) as Record<string, unknown>;
  let content: string;
  let summary: string;
  switch (name) {
    case TERMINAL_HISTORY_TOOL.name: {
      const paneId = typeof args.paneId === 'number' ? args.paneId : context.defaultPaneId;
      const pane = paneId !== undefined ? context.pane(paneId) : undefined;
      if (!pane) return { content: `There is no pane ${paneId ?? ''} to read history from.`, isError: true, summary: 'terminal history: no pane' };
      content = await runTerminalHistory(input, { blocks: () => pane.blocks(), output: (blockId) => pane.outputOf(blockId) });
      summary = `read terminal history (${describeSelector(args)})`;
      break;
    }
    case READ_FILE_TOOL.name:
      content = await readFileTool(input, { cwd: context.cwd, homeDir: context.homeDir, refuse: context.refuse });
      summary = `read ${typeof args.path === 'string' ? args.path : 'a file'}`;
      break;
    case LIST_DIRECTORY_TOOL.name:
      content = await listDirectoryTool(input, { cwd: context.cwd, homeDir: context.homeDir, refuse: context.refuse });
      summary = `listed ${typeof args.path === 'string' ? args.path : 'the current directory'}`;
      break;
    default:
      return { content: `There is no tool named ${name}.`, isError: true, summary: `unknown tool ${name}` };
  }
  return { content: scrubSecrets(content).text, isError: false, summary };
}

function describeSelector(args: Record<string, unknown>): string {
  const detail = typeof args.detail === 'string' ? args.detail : 'summary';
  if (typeof args.search === 'string') return `search "${args.search}", ${detail}`;
  if (typeof args.index === 'number') return `block ${args.index}, ${detail}`;
  if (typeof args.blockId === 'string') return `${args.blockId}, ${detail}`;
  return `last ${typeof args.last === 'number' ? args.last : 5}, ${detail}`;
}

import { z } from 'zod';
import type { ToolDefinition } from '../backends/modelBackend';

export const RunCommandInputSchema = z.object({
  command: z.string().trim().min(1).max(20_000),
  purpose: z.string().max(2_000).default(''),
  paneId: z.number().int().nonnegative().optional(),
});

export const RUN_COMMAND_TOOL: ToolDefinition = {
  name: 'run_command',
  description:
    "Run a shell command in the user's visible terminal pane, typed at its prompt as if by the user, after the user approves it (they may edit or deny it). " +
    'Several calls in one response form a plan whose steps run in order; a failing step stops the plan. ' +
    'The result is the command block: exit code, cwd, duration and output (head and tail when long, with the total size).',
  input_schema: {
    type: 'object',
    properties: {
      command: { type: 'string', description: 'The exact command line to type at the shell prompt.' },
      purpose: { type: 'string', description: 'One short sentence: why this step, and what it changes if anything.' },
      paneId: { type: 'integer', description: 'Pane to run in; omit for the active pane.' },
    },
    required: ['command', 'purpose'],
  },
};

import { z } from 'zod';
import { blockForModel } from '../blockForModel';
import type { CommandTool } from './agentTool';

export const RunCommandInputSchema = z.object({
  command: z.string().trim().min(1).max(20_000),
  purpose: z.string().max(2_000).default(''),
  paneId: z.number().int().nonnegative().optional(),
});

/**
 * `run_command`: a shell command typed into the user's visible pane once approved. Each call
 * is a plan step (plan/): the gate judges it, the user decides on its card, and the model is
 * told the block it produced.
 */
export const runCommandTool: CommandTool = {
  definition: {
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
  },
  approval: 'gate',
  steps: 'command',

  propose(input) {
    const parsed = RunCommandInputSchema.safeParse(input);
    if (parsed.success) return { ok: true, step: parsed.data };
    return { ok: false, refusal: `Not run: the tool input was invalid (${parsed.error.issues[0]?.message ?? 'bad input'}); "command" is required.` };
  },

  report(step, run, ownFilesChanged) {
    const notes = [
      step.originalCommand
        ? `${step.changedByHook ? `The pre-exec hook ${step.changedByHook} changed` : 'The user edited'} your command before it ran; it ran as shown (you proposed: ${step.originalCommand}).`
        : '',
      run.timedOut ? `It ran past the step timeout and was interrupted.` : '',
      run.interrupted ? `It was interrupted: ${run.interruption ?? 'the user stopped it from the AI panel'}.` : '',
    ].filter(Boolean);
    if (ownFilesChanged.length > 0) notes.push(`It changed Tandem's own files (${ownFilesChanged.join(', ')}); the plan was stopped and the user told.`);
    return blockForModel(run.block, run.output, { note: notes.join(' ') || undefined });
  },
};


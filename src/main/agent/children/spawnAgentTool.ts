import type { CommandTool } from '../tools/agentTool';
import { childReport } from './childReport';
import { SpawnRequestSchema } from './spawnRequest';

/**
 * `spawn_agent`: hands a sub-task to a child agent — a `tandem agent` process with its own
 * shell in its own pty, started by a plan step typed in the pane like any command, so the
 * same gate judges it and the user approves it on its card. The child can never do more than
 * this agent may; its steps that ask are decided here; its answer is the step's result.
 */
export const spawnAgentTool: CommandTool = {
  definition: {
    name: 'spawn_agent',
    description:
      'Hand a self-contained sub-task to a child agent: a separate agent process with its own shell, started in the pane after the user approves it. ' +
      "The child works on the instruction until done and its final answer is this call's result, with the commands it ran and files it changed. " +
      'It runs under your policy and can never be allowed more; give a `policy` (TOML, e.g. `[approval.shell]\\ndeny_patterns = ["git push*"]`) to narrow it further. ' +
      'Use it for work that is separable and long (e.g. investigate one service while you handle another); do simple things yourself.',
    input_schema: {
      type: 'object',
      properties: {
        instruction: { type: 'string', description: 'The sub-task, complete in itself: the child sees nothing of this conversation.' },
        purpose: { type: 'string', description: 'One short sentence: why a child agent does this.' },
        cwd: { type: 'string', description: "Where the child's shell starts; default: the pane's working directory." },
        policy: { type: 'string', description: 'A policy TOML snippet or a policy file path that narrows what the child may do.' },
        model: { type: 'string', description: 'The model for the child; default: the configured one.' },
        max_steps: { type: 'integer', description: 'The most steps the child may take.' },
        budget_usd: { type: 'number', description: 'The most the child may spend, in US dollars.' },
      },
      required: ['instruction', 'purpose'],
    },
  },
  approval: 'gate',
  steps: 'command',

  propose(input) {
    const parsed = SpawnRequestSchema.safeParse(input);
    if (!parsed.success) return { ok: false, refusal: `Not started: the tool input was invalid (${parsed.error.issues[0]?.path.join('.') || 'input'}: ${parsed.error.issues[0]?.message ?? 'bad input'}); "instruction" is required.` };
    // The command line is made by the dispatcher's ChildAgents (it knows how to start this program and where the child reports).
    return { ok: true, step: { command: '', purpose: parsed.data.purpose, spawn: parsed.data } };
  },

  report(step, run) {
    return childReport(step, run);
  },
};

import { randomUUID } from 'node:crypto';
import { plural } from '../../shared/countWords';
import type { AgentPane } from './agentPane';
import { blockForModel } from './blockForModel';
import type { Conversation } from './conversation/conversation';
import { StepRunner } from './plan/stepRunner';
import { redactionNote } from './redactionNote';

/**
 * `! cmd` typed in the panel: the user's own command, typed into the pane like a plan step
 * but needing no approval; its block joins the conversation and goes to the model with the
 * next request.
 */
export class UserCommand {
  private runner: StepRunner | undefined;

  get running(): boolean {
    return this.runner !== undefined;
  }

  interrupt(): void {
    this.runner?.interrupt();
  }

  async run(pane: AgentPane, command: string, timeoutMs: number, conversation: Conversation): Promise<void> {
    conversation.add({ id: randomUUID(), role: 'user', text: `! ${command}`, source: 'command', attachments: [], at: Date.now() });
    const runner = new StepRunner(pane, command, { timeoutMs });
    this.runner = runner;
    try {
      const outcome = await runner.run();
      if (outcome.kind === 'finished') {
        const exit = outcome.block.exitCode;
        const lines = outcome.output.lineCount;
        const forModel = blockForModel(outcome.block, outcome.output);
        conversation.add({
          id: randomUUID(),
          role: 'tool',
          tool: 'shell',
          summary: `ran \`${oneLine(command)}\` → exit ${exit ?? '?'} · ${plural(lines, 'line')}`,
          ok: exit === 0,
          blockId: outcome.block.id,
          redacted: redactionNote(forModel),
          at: Date.now(),
        });
        conversation.queue([{ type: 'text', text: `The user ran a command themselves:\n${forModel}` }]);
      } else if (outcome.kind !== 'cancelled') {
        conversation.add({ id: randomUUID(), role: 'error', text: outcome.message, at: Date.now() });
      }
    } finally {
      this.runner = undefined;
      conversation.changed();
    }
  }
}

function oneLine(text: string): string {
  const line = text.replace(/\s*\n\s*/g, ' ⏎ ');
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

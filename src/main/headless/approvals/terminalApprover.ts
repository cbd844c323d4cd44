import type { PendingApproval } from '../conversationEvents';
import type { TerminalSink } from '../output/terminalSink';
import type { ApprovalRequest, Approver, Decide, RelayedAnswer } from './approvalRequest';
import type { TerminalPrompter } from './terminalPrompter';

/**
 * `--approve=ask`: the seed's inline prompt at the controlling terminal — the step with its
 * level, rule and reasons, then `[y]es / [n]o / [a]lways this session / [e]dit / [q]uit`.
 * An edited command goes back to the gate, which judges it again (and may ask again).
 * One question at a time; requests arriving meanwhile wait their turn.
 */
export class TerminalApprover implements Approver {
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly prompter: TerminalPrompter,
    private readonly sink: TerminalSink | undefined,
    private readonly decide: Decide,
    /** `q`: the step is denied and the run ends there. */
    private readonly quit: () => void,
  ) {}

  ask(request: ApprovalRequest, pending: PendingApproval): void {
    this.enqueue(async () => {
      const answer = await this.question(request);
      if (answer === 'quit') this.quit();
      else if (answer?.decision === 'deny') this.decide(pending, 'deny', answer.note ? { reason: answer.note } : {});
      else if (answer?.command !== undefined) this.decide(pending, 'edit', { command: answer.command });
      else if (answer) this.decide(pending, answer.decision === 'allow_session' ? 'allow-session' : 'approve');
    });
  }

  /** A child agent's step: asked here like the run's own; an edited command goes to the child, whose gate judges it. */
  relay(request: ApprovalRequest, reply: (answer: RelayedAnswer) => void): void {
    this.enqueue(async () => {
      const answer = await this.question(request);
      if (answer === 'quit') {
        reply({ decision: 'deny', note: 'The user quit the parent run.' });
        this.quit();
      } else reply(answer ?? { decision: 'deny', note: 'The parent run was interrupted.' });
    });
  }

  dispose(): void {}

  private enqueue(work: () => Promise<void>): void {
    this.queue = this.queue.then(work).catch((error: unknown) => this.prompter.write(`tandem agent: ${(error as Error).message}\n`));
  }

  /** The person's answer; undefined on Ctrl+C (the run is interrupted, which cancels the step with everything else). */
  private async question(request: ApprovalRequest): Promise<RelayedAnswer | 'quit' | undefined> {
    this.sink?.beforePrompt();
    const paint = (code: number, text: string) => this.sink?.paint(code, text) ?? text;
    const level = this.sink?.level(request.level) ?? `[${(request.level ?? '?').toUpperCase()}]`;
    // The terminal's own lines have shown the step as proposed (level, command, reasons); a pipe's have not, nor a child's.
    const lines = this.sink && !request.agent ? [] : [`${request.agent ? `Child agent (depth ${request.agent.depth}${request.agent.pid ? `, pid ${request.agent.pid}` : ''}) asks: ` : ''}${level} ${request.kind === 'edit' ? `edit ${request.path}` : request.command}`];
    if (request.diff) lines.push(request.diff);
    if ((!this.sink || request.agent) && request.reasons.length) lines.push(paint(2, `  ${request.reasons.join('; ')}`));
    if (request.rule) lines.push(paint(2, `  ${request.rule}`));
    // An edit step's change is edited by denying it with a reason; a command can be edited here.
    const keys = ['y', 'n', ...(request.session_grant ? ['a'] : []), ...(request.kind === 'command' ? ['e'] : []), 'q'];
    const choices = ['[y]es', '[n]o', ...(request.session_grant ? ['[a]lways this session'] : []), ...(request.kind === 'command' ? ['[e]dit'] : []), '[q]uit'];
    this.prompter.write(`${lines.join('\n')}\n`);
    const key = await this.prompter.key(`Run it${request.host !== undefined ? ` on host ${request.host}` : ''}? ${choices.join(' / ')} `, keys, 'n');
    switch (key) {
      case undefined:
        return undefined;
      case 'y':
        return { decision: 'allow' };
      case 'a':
        return { decision: 'allow_session' };
      case 'e': {
        const edited = await this.prompter.line('Command: ', request.command);
        // Nothing changed: the same question again.
        if (edited === undefined || !edited.trim() || edited.trim() === request.command) return this.question(request);
        return { decision: 'allow', command: edited.trim() };
      }
      case 'n': {
        const reason = await this.prompter.line('Why (told to the agent; Enter to skip): ');
        return { decision: 'deny', ...(reason?.trim() ? { note: reason.trim() } : {}) };
      }
      default:
        // The run stops first (its plan cancelled, this step with it): a denial first would let the agent send one more request.
        return 'quit';
    }
  }
}

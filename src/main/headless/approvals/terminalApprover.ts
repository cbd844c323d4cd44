import type { PendingApproval } from '../conversationEvents';
import type { TerminalSink } from '../output/terminalSink';
import type { ApprovalRequest, Approver, Decide } from './approvalRequest';
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
    this.queue = this.queue.then(() => this.question(request, pending)).catch((error: unknown) => this.prompter.write(`tandem agent: ${(error as Error).message}\n`));
  }

  dispose(): void {}

  private async question(request: ApprovalRequest, pending: PendingApproval): Promise<void> {
    this.sink?.beforePrompt();
    const paint = (code: number, text: string) => this.sink?.paint(code, text) ?? text;
    const level = this.sink?.level(request.level) ?? `[${(request.level ?? '?').toUpperCase()}]`;
    // The terminal's own lines have shown the step as proposed (level, command, reasons); a pipe's have not.
    const lines = this.sink ? [] : [`${level} ${request.kind === 'edit' ? `edit ${request.path}` : request.command}`];
    if (request.diff) lines.push(request.diff);
    if (!this.sink && request.reasons.length) lines.push(paint(2, `  ${request.reasons.join('; ')}`));
    if (request.rule) lines.push(paint(2, `  ${request.rule}`));
    // An edit step's change is edited by denying it with a reason; a command can be edited here.
    const keys = ['y', 'n', ...(request.session_grant ? ['a'] : []), ...(request.kind === 'command' ? ['e'] : []), 'q'];
    const choices = ['[y]es', '[n]o', ...(request.session_grant ? ['[a]lways this session'] : []), ...(request.kind === 'command' ? ['[e]dit'] : []), '[q]uit'];
    this.prompter.write(`${lines.join('\n')}\n`);
    const key = await this.prompter.key(`Run it? ${choices.join(' / ')} `, keys, 'n');
    // Ctrl+C: the run is interrupted, which cancels this step with everything else.
    if (key === undefined) return;
    switch (key) {
      case 'y':
        this.decide(pending, 'approve');
        return;
      case 'a':
        this.decide(pending, 'allow-session');
        return;
      case 'e': {
        const edited = await this.prompter.line('Command: ', request.command);
        if (edited === undefined || !edited.trim() || edited.trim() === request.command) {
          // Nothing changed: the same question again.
          await this.question(request, pending);
          return;
        }
        this.decide(pending, 'edit', { command: edited.trim() });
        return;
      }
      case 'n': {
        const reason = await this.prompter.line('Why (told to the agent; Enter to skip): ');
        this.decide(pending, 'deny', reason?.trim() ? { reason: reason.trim() } : {});
        return;
      }
      default:
        // The run stops first (its plan cancelled, this step with it): a denial first would let the agent send one more request.
        this.quit();
    }
  }
}

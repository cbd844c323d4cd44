import type { AgentInput } from '../agentStream';
import type { PendingApproval } from '../conversationEvents';
import type { ApprovalRequest, Approver, Decide, RelayedAnswer } from './approvalRequest';

const NO_MORE_ANSWERS = 'stdin closed before an answer came, so nobody can approve it.';

/**
 * `--approve=stdio`: each step that waits goes out as an `approval_request` event and waits
 * for the `approval` line on stdin that echoes its id. An answer with a `command` edits the
 * step; the gate judges the new command, and if it still asks, the same answer decides it.
 */
export class StdioApprover implements Approver {
  private readonly waiting = new Map<string, PendingApproval>();
  /** Edits answered with allow: the step's new command, approved once the gate has judged it and still asks. */
  private readonly afterEdit = new Map<string, { command: string; decision: 'allow' | 'allow_session' }>();
  private inputClosed = false;
  /** A child agent's requests, passed on: the answer goes back to the child as it came. */
  private readonly relayed = new Map<string, (answer: RelayedAnswer) => void>();

  constructor(
    private readonly emit: (event: ApprovalRequest) => void,
    private readonly decide: Decide,
    private readonly problem: (message: string) => void,
  ) {}

  ask(request: ApprovalRequest, pending: PendingApproval): void {
    if (this.inputClosed) {
      this.emit(request);
      this.decide(pending, 'deny', { reason: NO_MORE_ANSWERS });
      return;
    }
    const edited = this.afterEdit.get(pending.step.id);
    this.afterEdit.delete(pending.step.id);
    if (edited && edited.command === pending.step.command) {
      this.decide(pending, edited.decision === 'allow_session' && request.session_grant ? 'allow-session' : 'approve');
      return;
    }
    this.waiting.set(request.id, pending);
    this.emit(request);
  }

  /** A child agent's step that asks: the request goes out, and the answer that echoes its id goes back to the child. */
  relay(request: ApprovalRequest, reply: (answer: RelayedAnswer) => void): void {
    this.emit(request);
    if (this.inputClosed) reply({ decision: 'deny', note: NO_MORE_ANSWERS });
    else this.relayed.set(request.id, reply);
  }

  /** An `approval` line from stdin. */
  answer(input: Extract<AgentInput, { type: 'approval' }>): void {
    const reply = this.relayed.get(input.id);
    if (reply) {
      this.relayed.delete(input.id);
      reply({ decision: input.decision, ...(input.note ? { note: input.note } : {}), ...(input.command !== undefined ? { command: input.command } : {}) });
      return;
    }
    const pending = this.waiting.get(input.id);
    if (!pending) {
      this.problem(`No approval request ${JSON.stringify(input.id)} is waiting${this.waiting.size ? `; waiting: ${[...this.waiting.keys()].join(', ')}` : ''}.`);
      return;
    }
    this.waiting.delete(input.id);
    try {
      if (input.decision === 'deny') {
        this.decide(pending, 'deny', { reason: input.note });
        return;
      }
      if (input.command !== undefined && input.command.trim() !== pending.step.command) {
        this.afterEdit.set(pending.step.id, { command: input.command.trim(), decision: input.decision });
        this.decide(pending, 'edit', { command: input.command.trim() });
        return;
      }
      this.decide(pending, input.decision === 'allow_session' ? 'allow-session' : 'approve');
    } catch (error) {
      this.waiting.set(input.id, pending);
      this.problem(`The answer to ${input.id} was not taken: ${(error as Error).message}`);
    }
  }

  /** stdin closed: what waits, and whatever asks from now on, is denied (nobody can answer). */
  inputEnded(): void {
    this.inputClosed = true;
    for (const [id, reply] of [...this.relayed]) {
      this.relayed.delete(id);
      reply({ decision: 'deny', note: NO_MORE_ANSWERS });
    }
    for (const [id, pending] of [...this.waiting]) {
      this.waiting.delete(id);
      this.decide(pending, 'deny', { reason: NO_MORE_ANSWERS });
    }
  }

  dispose(): void {
    this.waiting.clear();
  }
}

import type { ChildAgentView, ChildApprovalView, ChildStepView } from '../../../shared/agent';

type Message = Record<string, unknown>;

/** A child's approval request as it came over the channel (an `approval_request` event). */
export type ChildApprovalRequest = Message & { id: string; command: string };

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const count = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/**
 * A child agent's view, kept up to date from the event stream it sends its parent (the
 * `tandem agent` NDJSON events, docs/agent-protocol.md): its steps, files, usage, the steps
 * that ask, and its answer. Returns an approval request for the parent to route.
 */
export class ChildProgress {
  private readonly stepsById = new Map<string, ChildStepView>();
  private lastMessage = '';

  constructor(
    readonly view: ChildAgentView,
    private readonly changed: () => void,
  ) {}

  take(message: Message): ChildApprovalRequest | undefined {
    const request = this.apply(message);
    this.changed();
    return request;
  }

  /** The request was answered here: it no longer asks. False when it was not waiting. */
  answered(requestId: string): boolean {
    const before = this.view.asking.length;
    this.view.asking = this.view.asking.filter((asking) => asking.id !== requestId);
    if (this.view.asking.length === before) return false;
    this.changed();
    return true;
  }

  /** Nobody answered the request in time (a watcher run's wait_limit): its step is denied and the run ends as failed. */
  timedOut(requestId: string, reason: string): void {
    const asking = this.view.asking.find((request) => request.id === requestId) as (ChildApprovalView & { stepId?: string }) | undefined;
    const step = asking?.stepId ? this.stepsById.get(asking.stepId) : undefined;
    if (step) step.status = 'denied';
    this.end('failed', reason);
  }

  end(state: 'done' | 'failed' | 'stopped', reason?: string): void {
    this.view.state = state;
    if (reason) this.view.reason = reason;
    this.view.asking = [];
    this.changed();
  }

  private apply(message: Message): ChildApprovalRequest | undefined {
    const view = this.view;
    switch (message.type) {
      case 'hello':
        view.pid = count(message.pid);
        view.state = 'running';
        return undefined;
      case 'session':
        if (view.state === 'starting') view.state = 'running';
        return undefined;
      case 'step':
        this.step(message);
        return undefined;
      case 'file_change':
        if (text(message.path) && !view.filesChanged.includes(text(message.path))) view.filesChanged.push(text(message.path));
        return undefined;
      case 'usage': {
        const usage = message.usage as Message | undefined;
        view.usage = { inputTokens: count(usage?.input_tokens) ?? 0, outputTokens: count(usage?.output_tokens) ?? 0, ...(count(message.total_cost_usd) !== undefined ? { costUsd: count(message.total_cost_usd) } : {}) };
        return undefined;
      }
      case 'message':
        this.lastMessage = text(message.text);
        return undefined;
      case 'approval_request':
        return this.asks(message);
      case 'result':
        this.result(message);
        return undefined;
      default:
        return undefined;
    }
  }

  private step(message: Message): void {
    const id = text(message.step_id);
    if (!id) return;
    let step = this.stepsById.get(id);
    if (!step) {
      step = { index: this.view.steps.length + 1, command: text(message.command), status: 'running' };
      this.stepsById.set(id, step);
      this.view.steps.push(step);
    }
    if (text(message.command)) step.command = text(message.command);
    switch (message.phase) {
      case 'proposed':
        step.status = message.decision === 'deny' ? 'denied' : message.decision === 'ask' ? 'asking' : 'running';
        return;
      case 'decided':
        step.status = message.verdict === 'denied' ? 'denied' : message.verdict === 'skipped' ? 'skipped' : 'running';
        this.view.asking = this.view.asking.filter((asking) => asking.stepId !== id);
        return;
      case 'started':
        step.status = 'running';
        return;
      case 'finished': {
        const status = text(message.status);
        step.status = status === 'done' || status === 'failed' || status === 'denied' || status === 'skipped' ? status : 'failed';
        const exit = count(message.exit_code);
        if (exit !== undefined) step.exitCode = exit;
        return;
      }
    }
  }

  private asks(message: Message): ChildApprovalRequest | undefined {
    const id = text(message.id);
    if (!id) return undefined;
    const asking: ChildApprovalView & { stepId: string } = {
      id,
      stepId: text(message.step_id),
      kind: text(message.kind) || 'command',
      command: text(message.command),
      purpose: text(message.purpose),
      ...(message.level === 'green' || message.level === 'yellow' || message.level === 'red' ? { level: message.level } : {}),
      reasons: Array.isArray(message.reasons) ? message.reasons.map(text).filter(Boolean) : [],
      rule: text(message.rule),
      ...(text(message.diff) ? { diff: text(message.diff) } : {}),
      ...(deeperAgent(message.agent) ? { agent: deeperAgent(message.agent) } : {}),
    };
    this.view.asking.push(asking);
    return { ...message, id, command: asking.command };
  }

  private result(message: Message): void {
    const usage = message.usage as Message | undefined;
    if (usage) this.view.usage = { inputTokens: count(usage.input_tokens) ?? 0, outputTokens: count(usage.output_tokens) ?? 0, ...(count(message.total_cost_usd) !== undefined ? { costUsd: count(message.total_cost_usd) } : {}) };
    this.view.answer = text(message.result) || this.lastMessage || undefined;
    const subtype = text(message.subtype);
    this.end(subtype === 'success' ? 'done' : subtype === 'error_interrupted' ? 'stopped' : 'failed', message.is_error === true ? text(message.reason) || subtype : undefined);
  }
}

/** The `agent` of a request a child passed on from its own child: who asks, further down the tree. */
function deeperAgent(value: unknown): { depth: number; pid?: number } | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const depth = count((value as Message).depth);
  const pid = count((value as Message).pid);
  return depth !== undefined ? { depth, ...(pid !== undefined ? { pid } : {}) } : undefined;
}

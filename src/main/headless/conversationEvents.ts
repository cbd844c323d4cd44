import type { ConversationItem, ConversationView, PlanStepView, PlanView } from '../../shared/agent';
import type { AgentStreamEvent } from './agentStream';
import { unifiedDiff } from './unifiedDiff';

type StepKind = NonNullable<PlanStepView['kind']>;

/** How long a step's end waits for the rest of its output (its block's end on the client's side) at most. */
const OUTPUT_WAIT_MS = 2_000;

interface StepSeen {
  /** When the engine first showed the step ended. */
  endedAt?: number;
  /** The command the last `proposed` event was about (an edit makes a new one). */
  proposed?: string;
  /** The command an approval was last requested for. */
  requested?: string;
  decided?: boolean;
  started?: boolean;
  finished?: boolean;
  /** What a running step last said of itself ("no output for 15 s: it may be waiting for input"). */
  detail?: string;
}

/** A step waiting for someone's decision: what the approver is asked. */
export interface PendingApproval {
  plan: PlanView;
  step: PlanStepView;
}

/**
 * The conversation's views, as the panel gets them, turned into the `tandem agent` event
 * stream: each message, plan, step transition, file change, retry, fallback, error and usage change
 * once, in the order they happened. The engine stays the one writer of the state; this only
 * notices what changed since the last view. A step's end waits until its output is out
 * (`outputDrained`), so `output` lines always come before their step's `finished`.
 */
export class ConversationEvents {
  private readonly messages = new Set<string>();
  private readonly plans = new Set<string>();
  private readonly steps = new Map<string, StepSeen>();
  private readonly retries = new Map<string, string>();
  /** Error and fallback items already out (each once). */
  private readonly errors = new Set<string>();
  private usageKey = '';
  /** Models already named as not counted by the daily budget. */
  private readonly unpriced = new Set<string>();
  private latest: ConversationView | undefined;
  /** Streaming text held back while a step's end waits for its output (it came after that step). */
  private heldDeltas: { messageId: string; text: string }[] = [];
  private holding = false;

  constructor(
    private readonly emit: (event: AgentStreamEvent) => void,
    private readonly outputDrained: (step: PlanStepView) => { drained: boolean; omitted: () => number },
    private readonly askFor: (pending: PendingApproval) => void,
  ) {}

  get view(): ConversationView | undefined {
    return this.latest;
  }

  /** The step a block of the agent's pane belongs to. */
  stepOfBlock(blockId: string): { plan: PlanView; step: PlanStepView } | undefined {
    for (const item of this.latest?.items ?? []) {
      if (item.role !== 'plan') continue;
      const step = item.plan.steps.find((candidate) => candidate.blockId === blockId);
      if (step) return { plan: item.plan, step };
    }
    return undefined;
  }

  /**
   * Events stop at a step whose end waits for its output: what came after it in the
   * conversation goes out after it, at the next view or `recheck`.
   */
  update(view: ConversationView): void {
    this.latest = view;
    this.holding = false;
    for (const item of view.items) {
      if (!this.item(item)) {
        this.holding = true;
        return;
      }
    }
    this.releaseDeltas();
    for (const model of view.dailyBudget?.unpriced ?? []) {
      if (this.unpriced.has(model)) continue;
      this.unpriced.add(model);
      this.emit({ type: 'notice', level: 'warning', message: unpricedNotice(model) });
    }
    const usage = view.usage;
    const key = `${usage.inputTokens}/${usage.outputTokens}`;
    if (key !== this.usageKey && (usage.inputTokens || usage.outputTokens)) {
      this.usageKey = key;
      this.emit({ type: 'usage', usage: streamUsage(view), ...(usage.costUsd !== undefined ? { total_cost_usd: roundedUsd(usage.costUsd) } : {}), ...(usage.costUnknown ? { cost_unknown: true as const } : {}) });
    }
  }

  /** Streaming text of an answer: out at once, unless what came before it is held back. */
  delta(messageId: string, text: string): void {
    if (this.holding) this.heldDeltas.push({ messageId, text });
    else this.emit({ type: 'delta', message_id: messageId, text });
  }

  private releaseDeltas(messageId?: string): void {
    const release = messageId === undefined ? this.heldDeltas : this.heldDeltas.filter((delta) => delta.messageId === messageId);
    this.heldDeltas = messageId === undefined ? [] : this.heldDeltas.filter((delta) => delta.messageId !== messageId);
    for (const delta of release) this.emit({ type: 'delta', message_id: delta.messageId, text: delta.text });
  }

  /** Steps that ended in the engine whose `finished` event still waits for their output. */
  unsentEnds(): number {
    let count = 0;
    for (const item of this.latest?.items ?? []) {
      if (item.role !== 'plan') continue;
      for (const step of item.plan.steps) {
        const ended = step.status === 'done' || step.status === 'failed' || step.status === 'denied' || step.status === 'skipped';
        if (ended && !this.steps.get(step.id)?.finished) count++;
      }
    }
    return count;
  }

  /** Steps whose end waited for their output: checked again (the output stream drained). */
  recheck(): void {
    if (this.latest) this.update(this.latest);
  }

  /** False while the item holds back what follows it (a step's end waiting for its output). */
  private item(item: ConversationItem): boolean {
    switch (item.role) {
      case 'assistant':
        if (!item.streaming && !this.messages.has(item.id)) {
          this.messages.add(item.id);
          this.releaseDeltas(item.id);
          if (item.text || item.interrupted) this.emit({ type: 'message', message_id: item.id, text: item.text, ...(item.interrupted ? { interrupted: item.interrupted } : {}) });
        }
        return true;
      case 'plan':
        return this.plan(item.plan);
      case 'retry': {
        const key = `${item.state}:${item.attempt}`;
        if (this.retries.get(item.id) === key) return true;
        this.retries.set(item.id, key);
        if (item.state === 'waiting') this.emit({ type: 'retry', reason: item.reason, attempt: item.attempt, attempts: item.attempts, seconds_left: item.secondsLeft });
        return true;
      }
      case 'fallback':
        if (this.errors.has(item.id)) return true;
        this.errors.add(item.id);
        this.emit({ type: 'fallback', from: { backend: item.from.backend, model: item.from.model }, to: { backend: item.to.backend, model: item.to.model }, reason: item.reason });
        return true;
      case 'error':
        if (this.errors.has(item.id)) return true;
        this.errors.add(item.id);
        this.emit({ type: 'error', message: item.text, ...(item.retryable !== undefined ? { retryable: item.retryable } : {}), ...(item.dailyBudget ? { code: 'daily_budget' as const } : {}) });
        return true;
      default:
        return true;
    }
  }

  private plan(plan: PlanView): boolean {
    if (!this.plans.has(plan.id) && plan.steps.length > 0) {
      this.plans.add(plan.id);
      this.emit({
        type: 'plan',
        plan_id: plan.id,
        steps: plan.steps.map((step) => ({ step_id: step.id, index: step.index, kind: kindOf(step), command: step.command, purpose: step.purpose })),
      });
    }
    for (const step of plan.steps) if (!this.step(plan, step)) return false;
    return true;
  }

  /** False while the step's end waits for its output. */
  private step(plan: PlanView, step: PlanStepView): boolean {
    const seen = this.steps.get(step.id) ?? {};
    this.steps.set(step.id, seen);
    if (seen.finished) return true;
    const ref = { plan_id: plan.id, step_id: step.id, index: step.index };
    const approval = step.approval;
    if (approval && step.risk && seen.proposed !== step.command) {
      seen.proposed = step.command;
      this.emit({
        type: 'step',
        phase: 'proposed',
        ...ref,
        kind: kindOf(step),
        command: step.command,
        ...(step.edit ? { path: step.edit.path } : {}),
        purpose: step.purpose,
        ...(step.cwd ? { cwd: step.cwd } : {}),
        level: step.risk.level,
        reasons: step.risk.reasons,
        decision: approval.decision,
        rule: approval.rule,
        blocked: approval.blocked,
      });
    }
    if (plan.decisionStepId === step.id && step.status === 'proposed' && approval?.decision === 'ask' && !approval.blocked && seen.requested !== step.command && seen.proposed === step.command) {
      seen.requested = step.command;
      this.askFor({ plan, step });
    }
    if (step.decider && !seen.decided) {
      seen.decided = true;
      this.emit({ type: 'step', phase: 'decided', ...ref, command: step.command, verdict: step.decider.verdict, decided_by: step.decider.by, rule: step.decider.rule, ...(step.detail && step.decider.verdict !== 'allowed' ? { detail: step.detail } : {}) });
    }
    if ((step.status === 'running' || step.status === 'done' || step.status === 'failed') && !seen.started && (step.status === 'running' || step.blockId || step.durationMs !== undefined)) {
      seen.started = true;
      this.emit({ type: 'step', phase: 'started', ...ref, command: step.command, ...(step.cwd ? { cwd: step.cwd } : {}) });
    }
    if (step.status === 'running' && step.detail && step.detail !== seen.detail) {
      // Nobody watches the pane of a headless run: what the step runner would show on its card is said here.
      seen.detail = step.detail;
      this.emit({ type: 'notice', level: 'info', message: `Step ${step.index} (${step.command}): ${step.detail}` });
    }
    const ended = step.status === 'done' || step.status === 'failed' || step.status === 'denied' || step.status === 'skipped';
    if (!ended) return true;
    seen.endedAt ??= Date.now();
    const output = this.outputDrained(step);
    if (!output.drained && Date.now() - seen.endedAt < OUTPUT_WAIT_MS) return false;
    seen.finished = true;
    if (step.edit && step.status === 'done') {
      this.emit({ type: 'file_change', ...ref, path: step.edit.path, creates: step.edit.creates, added: step.edit.diff.added, removed: step.edit.diff.removed, diff: unifiedDiff(step.edit.path, step.edit.diff, step.edit.creates) });
    }
    const omitted = output.omitted();
    this.emit({
      type: 'step',
      phase: 'finished',
      ...ref,
      command: step.command,
      status: step.status as 'done' | 'failed' | 'denied' | 'skipped',
      ...(step.exitCode !== undefined ? { exit_code: step.exitCode } : {}),
      ...(step.durationMs !== undefined ? { duration_ms: step.durationMs } : {}),
      ...(step.cwd ? { cwd: step.cwd } : {}),
      ...(step.detail ? { detail: step.detail } : {}),
      ...(omitted ? { omitted_bytes: omitted } : {}),
    });
    return true;
  }
}

/** Dollars to a millionth: what list prices mean, without the float noise of summing them. */
export function roundedUsd(amount: number): number {
  return Math.round(amount * 1e6) / 1e6;
}

export function kindOf(step: PlanStepView): StepKind {
  return step.kind ?? 'command';
}

export function streamUsage(view: ConversationView): { input_tokens: number; output_tokens: number; context_tokens: number } {
  return { input_tokens: view.usage.inputTokens, output_tokens: view.usage.outputTokens, context_tokens: view.usage.contextTokens };
}

export function unpricedNotice(model: string): string {
  return `${model} has no price in Tandem's table: its requests are not counted toward [ai] daily_budget_usd (tandem usage shows them as cost unknown).`;
}

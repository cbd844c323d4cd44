import type { ConversationItem, PlanView } from '../../../shared/agent';
import { describeAutoEnd, type AutoEnd, type AutoSummary, type AutoSummaryStep, type AutoView } from '../../../shared/companion';
import { plural } from '../../../shared/countWords';
import type { PlanRules } from '../plan/plan';

export interface AutoLimits {
  maxSteps: number;
  stepTimeoutMs: number;
  totalMs: number;
  tokenBudget: number;
}

export interface AutoRunHost {
  /** Everything the agent does stops: the stream, the plan, the running step (the loop then ends); `end` says why. */
  stopEverything(end: AutoEnd): void;
  changed(): void;
}

/**
 * One `!auto <task>` run: its limits, the tokens it used, and how it ended. Its steps are
 * the steps of the auto plans in the conversation after the task's message, so the count,
 * the banner and the summary all read the cards the user sees.
 */
export class AutoRun {
  readonly startedAt = Date.now();
  private tokens = 0;
  private ending: AutoEnd | undefined;
  private readonly timer: NodeJS.Timeout;

  constructor(
    readonly task: string,
    readonly paneId: number,
    /** The conversation item of the task's message: the run's plans come after it. */
    readonly startItemId: string,
    private readonly limits: AutoLimits,
    private readonly host: AutoRunHost,
  ) {
    this.timer = setTimeout(() => this.stop({ kind: 'limit', limit: 'time', detail: `the time limit of ${formatMinutes(limits.totalMs)} was reached` }), limits.totalMs);
    this.timer.unref?.();
  }

  /** Why the run was told to stop, once it was. */
  get end(): AutoEnd | undefined {
    return this.ending;
  }

  get stepTimeoutMs(): number {
    return this.limits.stepTimeoutMs;
  }

  /** The rules of the run's next plan: auto, and no more steps than the run has left. */
  planRules(items: readonly ConversationItem[]): PlanRules {
    return { auto: true, stepLimit: { left: Math.max(0, this.limits.maxSteps - this.stepCount(items)), total: this.limits.maxSteps } };
  }

  view(items: readonly ConversationItem[]): AutoView {
    const end = this.ending;
    return {
      task: this.task,
      paneId: this.paneId,
      startedAt: this.startedAt,
      steps: this.stepCount(items),
      current: this.currentStep(items),
      maxSteps: this.limits.maxSteps,
      ...(end ? { stopping: describeAutoEnd(end) } : {}),
    };
  }

  /** A model request of the run answered; past the run's token budget, it stops. */
  countTokens(tokens: number): void {
    this.tokens += tokens;
    if (this.tokens >= this.limits.tokenBudget) {
      this.stop({ kind: 'limit', limit: 'tokens', detail: `its token budget of ${this.limits.tokenBudget.toLocaleString('en-US')} was used up` });
    }
  }

  /** After a batch of steps: at the step limit, the run stops (the model has been told). */
  checkSteps(items: readonly ConversationItem[]): void {
    if (this.stepCount(items) >= this.limits.maxSteps) {
      this.stop({ kind: 'limit', limit: 'steps', detail: `the limit of ${plural(this.limits.maxSteps, 'step')} was reached` });
    }
  }

  /** The first reason to stop wins; everything the agent does stops, and the loop then ends the run. */
  stop(end: AutoEnd): void {
    if (this.ending) return;
    this.ending = end;
    clearTimeout(this.timer);
    this.host.stopEverything(end);
    this.host.changed();
  }

  /** The agent's loop ended: the run's account, from its plans' cards. */
  finish(items: readonly ConversationItem[], loopEnd: AutoEnd): AutoSummary {
    clearTimeout(this.timer);
    this.ending ??= loopEnd;
    return {
      task: this.task,
      end: this.ending,
      durationMs: Date.now() - this.startedAt,
      tokens: this.tokens,
      steps: this.plans(items).flatMap((plan) => plan.steps.map((step) => summaryStep(plan, step))),
    };
  }

  /** The step the run is on: the first that has not ended (steps refused for the limit are not counted). */
  private currentStep(items: readonly ConversationItem[]): number {
    const steps = this.plans(items).flatMap((plan) => plan.steps.filter((step) => !step.beyondLimit));
    const open = steps.findIndex((step) => step.status === 'proposed' || step.status === 'approved' || step.status === 'running');
    return open >= 0 ? open + 1 : steps.length;
  }

  /** Steps refused for being beyond the limit do not count against it. */
  private stepCount(items: readonly ConversationItem[]): number {
    return this.plans(items).reduce((count, plan) => count + plan.steps.filter((step) => !step.beyondLimit).length, 0);
  }

  private plans(items: readonly ConversationItem[]): PlanView[] {
    const start = items.findIndex((item) => item.id === this.startItemId);
    if (start < 0) return [];
    return items.slice(start + 1).flatMap((item) => (item.role === 'plan' && item.plan.auto ? [item.plan] : []));
  }
}

function summaryStep(plan: PlanView, step: PlanView['steps'][number]): AutoSummaryStep {
  const edit = step.kind === 'edit' && step.edit;
  return {
    planId: plan.id,
    stepId: step.id,
    kind: edit ? 'edit' : step.kind === 'ui' ? 'ui' : 'command',
    command: step.ui?.description ?? step.command,
    status: step.status,
    ...(step.exitCode !== undefined ? { exitCode: step.exitCode } : {}),
    ...(edit ? { path: edit.path } : {}),
    ...(step.detail ? { detail: step.detail } : {}),
  };
}

function formatMinutes(ms: number): string {
  const minutes = ms / 60_000;
  return minutes >= 1 ? `${Math.round(minutes)} min` : `${Math.round(ms / 1000)} s`;
}

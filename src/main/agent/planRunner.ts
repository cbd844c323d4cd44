import type { Pane } from '../panes/pane';
import { blockForModel } from './blockForModel';
import { assessStepRisk, type Plan, type PlanStep, type RiskClassifier } from './plan';
import { StepRunner } from './stepRunner';

export type PlanAction = 'allow-all' | 'step-through' | 'deny-plan' | 'continue' | 'stop';
export type StepAction = 'approve' | 'deny' | 'skip' | 'edit';

export interface PlanRunnerDeps {
  pane(paneId: number): Pane | undefined;
  timeoutMs(): number;
  classify: RiskClassifier;
  /** The plan or a step changed: show it. */
  changed(): void;
}

/**
 * Drives one plan: waits for the user's decisions, runs approved steps one at a time in
 * their pane, stops at a failing step until the user says continue or stop, and collects
 * what the model is told about every step. Nothing runs that the user did not approve
 * (step by step, or with Allow all).
 */
export class PlanRunner {
  private step: { step: PlanStep; runner: StepRunner } | undefined;

  constructor(
    readonly plan: Plan,
    private readonly deps: PlanRunnerDeps,
  ) {}

  get runningStep(): boolean {
    return this.step !== undefined;
  }

  /** The plan cannot move until the user decides something. */
  get waitingForUser(): boolean {
    if (this.plan.settled || this.step) return false;
    if (this.plan.state === 'halted') return true;
    const next = this.plan.nextOpen();
    return next?.status === 'proposed' && (this.plan.mode !== 'allow-all' || next.risk?.level === 'red');
  }

  get detail(): string | undefined {
    if (this.step) return this.step.step.detail;
    if (this.plan.state === 'halted') return this.plan.haltReason;
    return undefined;
  }

  /** Resolves once every step is settled, with the tool result of each. */
  async run(): Promise<{ toolUseId: string; content: string; isError: boolean }[]> {
    while (!this.plan.settled) {
      if (this.plan.note !== undefined && !this.step) {
        this.plan.closeOpenSteps(
          'skipped',
          'replaced by the revised plan',
          'Not run: before this step the user added a note (below); revise the remaining steps.',
        );
        this.finish('finished');
        break;
      }
      if (this.plan.state === 'halted') {
        await this.waitForChange();
        continue;
      }
      const next = this.plan.nextOpen();
      if (!next) {
        this.finish('finished');
        break;
      }
      if (next.status === 'proposed') {
        // Allow all approves in order, but never a RED step: that one waits for the user.
        if (this.plan.mode === 'allow-all' && (await this.riskOf(next)) !== 'red' && next.status === 'proposed') {
          this.plan.setStatus(next, 'approved');
        } else {
          await this.waitForChange();
          continue;
        }
      }
      if (next.status === 'approved') {
        if ((await this.riskOf(next)) === 'red') {
          this.plan.setStatus(next, 'proposed', blockedDetail(next));
          this.deps.changed();
          continue;
        }
        await this.runStep(next);
      }
    }
    return this.plan.steps.map((step) => ({
      toolUseId: step.toolUseId,
      content: step.result?.content ?? 'Not run.',
      isError: step.result?.isError ?? true,
    }));
  }

  planAction(action: PlanAction): void {
    const plan = this.plan;
    if (plan.settled) throw new Error('This plan is finished.');
    switch (action) {
      case 'allow-all':
      case 'step-through':
        plan.mode = action;
        break;
      case 'deny-plan':
        plan.closeOpenSteps('denied', 'plan denied', 'Not run: the user denied the whole plan.');
        if (!this.step) this.finish('finished');
        break;
      case 'continue':
        if (plan.state !== 'halted') throw new Error('The plan is not stopped.');
        plan.state = 'active';
        plan.haltReason = undefined;
        break;
      case 'stop':
        plan.closeOpenSteps('skipped', 'plan stopped', `Not run: the user stopped the plan${plan.haltReason ? ` (${plan.haltReason})` : ''}.`);
        this.finish('finished');
        break;
    }
    plan.touch();
    this.deps.changed();
  }

  stepAction(stepId: string, action: StepAction, command?: string, reason?: string): void {
    const step = this.plan.step(stepId);
    if (!step) throw new Error(`There is no step ${stepId} in this plan.`);
    if (step.status !== 'proposed') throw new Error(`Step ${step.index} is already ${step.status}.`);
    switch (action) {
      case 'approve':
        if (step.risk?.level === 'red') throw new Error(`Step ${step.index} is blocked: ${blockedDetail(step)}`);
        this.plan.setStatus(step, 'approved');
        break;
      case 'edit': {
        const edited = command?.trim();
        if (!edited) throw new Error('The edited command is empty.');
        if (edited !== step.command) {
          step.originalCommand ??= step.command;
          step.command = edited;
          // The edited command is judged afresh before it may run.
          assessStepRisk(step, this.deps.classify, this.cwdOf(step), () => this.deps.changed());
        }
        this.plan.setStatus(step, 'approved', step.originalCommand ? 'edited by you' : undefined);
        break;
      }
      case 'deny': {
        const why = reason?.trim();
        step.result = { content: `Not run: the user denied this step${why ? `. Their reason: ${why}` : '.'}`, isError: true };
        this.plan.setStatus(step, 'denied', why || undefined);
        break;
      }
      case 'skip':
        step.result = { content: 'Not run: the user skipped this step.', isError: false };
        this.plan.setStatus(step, 'skipped');
        break;
    }
    this.deps.changed();
  }

  addNote(note: string): void {
    this.plan.note = this.plan.note ? `${this.plan.note}\n\n${note}` : note;
    if (this.plan.state === 'halted') this.plan.state = 'active';
    this.plan.touch();
    this.deps.changed();
  }

  /** Cancel the plan: steps not yet run will not run; with `everything`, the running one gets SIGINT too. */
  cancel(everything: boolean): void {
    if (this.plan.settled) return;
    this.plan.closeOpenSteps('skipped', 'plan cancelled', 'Not run: the user cancelled the plan.');
    if (everything) this.step?.runner.interrupt();
    this.finish('cancelled');
    this.deps.changed();
  }

  interruptRunningStep(): void {
    this.step?.runner.interrupt();
  }

  private async riskOf(step: PlanStep): Promise<'green' | 'yellow' | 'red'> {
    await step.riskReady;
    return step.risk?.level ?? 'yellow';
  }

  private cwdOf(step: PlanStep): string {
    return (step.paneId !== undefined ? this.deps.pane(step.paneId)?.cwd : undefined) ?? '';
  }

  private async runStep(step: PlanStep): Promise<void> {
    const pane = step.paneId !== undefined ? this.deps.pane(step.paneId) : undefined;
    if (!pane) {
      step.result = { content: `Not run: pane ${step.paneId ?? '?'} no longer exists.`, isError: true };
      this.plan.setStatus(step, 'failed', 'the pane is gone');
      this.halt(step, `Step ${step.index} could not run: its pane is gone.`);
      return;
    }
    this.plan.setStatus(step, 'running');
    const runner = new StepRunner(pane, step.command, {
      timeoutMs: this.deps.timeoutMs(),
      onDetail: (detail) => {
        step.detail = detail;
        this.deps.changed();
      },
      onBlockStarted: (block) => {
        step.blockId = block.id;
        this.deps.changed();
      },
    });
    this.step = { step, runner };
    this.deps.changed();
    const outcome = await runner.run();
    this.step = undefined;
    switch (outcome.kind) {
      case 'finished': {
        const { block, output } = outcome;
        step.exitCode = block.exitCode;
        step.durationMs = (block.endedAt ?? Date.now()) - block.startedAt;
        const notes = [
          step.originalCommand ? `The user edited your command before it ran; it ran as shown (you proposed: ${step.originalCommand}).` : '',
          outcome.timedOut ? `It ran past the step timeout and was interrupted.` : '',
          outcome.interrupted ? 'The user interrupted it (Ctrl+C).' : '',
        ].filter(Boolean);
        const ok = block.exitCode === 0 || (block.exitCode === undefined && !outcome.timedOut && !outcome.interrupted);
        step.result = { content: blockForModel(block, output, { note: notes.join(' ') || undefined }), isError: !ok };
        const detail = outcome.timedOut ? 'timed out' : outcome.interrupted ? 'interrupted' : undefined;
        this.plan.setStatus(step, ok ? 'done' : 'failed', detail);
        if (!ok) this.halt(step, `Step ${step.index} exited with code ${block.exitCode ?? 'unknown'}${detail ? ` (${detail})` : ''}.`);
        break;
      }
      case 'cancelled':
        step.result = { content: 'Not run: cancelled before it was typed.', isError: false };
        this.plan.setStatus(step, 'skipped', 'cancelled');
        break;
      case 'not-run':
      case 'pane-gone':
        step.result = { content: `Not run: ${outcome.message}`, isError: true };
        this.plan.setStatus(step, 'failed', outcome.message);
        this.halt(step, `Step ${step.index}: ${outcome.message}`);
        break;
    }
    this.deps.changed();
  }

  /** A failed step stops the plan; the user continues or stops it (a note also works). */
  private halt(step: PlanStep, reason: string): void {
    if (this.plan.settled) return;
    if (!this.plan.nextOpen()) return;
    this.plan.state = 'halted';
    this.plan.haltReason = reason;
    void step;
  }

  private finish(state: 'finished' | 'cancelled'): void {
    this.plan.state = state;
    this.plan.touch();
    this.deps.changed();
  }

  private waitForChange(): Promise<void> {
    this.deps.changed();
    return this.plan.changed();
  }
}

function blockedDetail(step: PlanStep): string {
  const why = step.risk?.reasons.join(' ') ?? '';
  return `blocked (RED${why ? `: ${why}` : ''}). Edit it into something safer, deny it or skip it.`;
}

import type { StepApproval } from '../../shared/agent';
import type { AgentPane } from './agentPane';
import type { GateDecision, ProposedCommand } from '../safety/approval/approvalGate';
import type { OwnFilesWatch } from '../safety/approval/ownFilesWatch';
import type { AuditRecord } from '../safety/audit/auditEntry';
import { blockForModel } from './blockForModel';
import { assessStepRisk, type Plan, type PlanStep, type RiskClassifier } from './plan';
import { StepRunner } from './stepRunner';

export type PlanAction = 'allow-all' | 'step-through' | 'deny-plan' | 'continue' | 'stop';
export type StepAction = 'approve' | 'allow-session' | 'deny' | 'skip' | 'edit';

export interface PlanRunnerDeps {
  pane(paneId: number): AgentPane | undefined;
  timeoutMs(): number;
  classify: RiskClassifier;
  /** The approval gate: policy, hooks and session grants. */
  decide(proposed: ProposedCommand): Promise<GateDecision>;
  /** "Allow for this session": the shape stops asking until the window closes. */
  grant(shape: string, command: string): void;
  /** One line of the audit trail (conversation and plan are filled in by the caller). */
  audit(record: AuditRecord): void;
  /** A step ran to its end: post-exec hooks. */
  executed?(step: PlanStep, cwd: string): void;
  /** Tandem's own files (config, policy, hooks): a step that changes them stops the plan. */
  ownFiles?: Pick<OwnFilesWatch, 'snapshot' | 'changedSince'>;
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
  ) {
    for (const step of plan.steps) {
      deps.audit({ event: 'proposed', step: step.index, command: step.command, cwd: this.cwdOf(step) || undefined, pane: step.paneId });
    }
  }

  get runningStep(): boolean {
    return this.step !== undefined;
  }

  /** A message from the user now steers the plan (as a note): no step is running and the next one waits for a decision or its check. */
  get steerable(): boolean {
    if (this.plan.settled || this.step) return false;
    return this.plan.state === 'halted' || this.plan.nextOpen()?.status === 'proposed';
  }

  /** The plan cannot move until the user decides something. */
  get waitingForUser(): boolean {
    if (this.plan.settled || this.step) return false;
    if (this.plan.state === 'halted') return true;
    const next = this.plan.nextOpen();
    if (next?.status !== 'proposed' || !next.approval || next.judgedCommand !== next.command) return false;
    if (next.approval.blocked) return true;
    return next.approval.decision === 'ask' && this.plan.mode !== 'allow-all';
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
      const decision = await this.judge(next);
      if (this.plan.settled || this.plan.nextOpen() !== next || next.judgedCommand !== next.command) continue;
      if (next.status !== 'proposed' && next.status !== 'approved') continue;
      if (decision.decision === 'deny') {
        this.gateDenied(next, decision);
        continue;
      }
      if (decision.blocked) {
        if (next.blockAudited !== next.command) {
          next.blockAudited = next.command;
          this.record(next, 'blocked', { decidedBy: { kind: auditKind(decision.decidedBy), rule: decision.rule } });
        }
        if (next.status === 'approved') this.plan.setStatus(next, 'proposed', blockedDetail(next));
        await this.waitForChange();
        continue;
      }
      if (next.status === 'proposed') {
        if (decision.decision === 'allow') {
          this.approve(next, { kind: auditKind(decision.decidedBy), rule: decision.rule }, `allowed: ${decision.rule}`);
        } else if (this.plan.mode === 'allow-all') {
          // Allow all approves in order; RED steps were stopped above.
          this.approve(next, { kind: 'person', rule: 'Allow all' });
        } else {
          await this.waitForChange();
          continue;
        }
      }
      if (next.status === 'approved') await this.runStep(next);
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
      case 'allow-session': {
        if (step.approval ? step.approval.blocked : step.risk?.level === 'red') throw new Error(`Step ${step.index} is blocked: ${blockedDetail(step)}`);
        if (action === 'allow-session') {
          const approval = step.judgedCommand === step.command ? step.approval : undefined;
          if (!approval) throw new Error(`Step ${step.index} is still being checked; try again in a moment.`);
          if (!approval.grantable) throw new Error(`Step ${step.index} cannot be allowed for the session.`);
          this.deps.grant(approval.shape, step.command);
          this.approve(step, { kind: 'person', rule: `Allow for this session (${approval.shape})` }, 'allowed for this session');
        } else {
          this.approve(step, { kind: 'person', rule: 'Allow once' });
        }
        break;
      }
      case 'edit': {
        const edited = command?.trim();
        if (!edited) throw new Error('The edited command is empty.');
        if (edited !== step.command) {
          this.record(step, 'edited', { command: edited, originalCommand: step.command });
          step.originalCommand ??= step.command;
          step.command = edited;
          step.changedByHook = undefined;
          step.approval = undefined;
          // The edited command is judged afresh (risk, policy, hooks) before it may run.
          assessStepRisk(step, this.deps.classify, this.cwdOf(step), () => this.deps.changed());
        }
        this.approve(step, { kind: 'person', rule: 'Edit' }, step.originalCommand ? 'edited by you' : undefined);
        break;
      }
      case 'deny': {
        const why = reason?.trim();
        step.result = { content: `Not run: the user denied this step${why ? `. Their reason: ${why}` : '.'}`, isError: true };
        this.plan.setStatus(step, 'denied', why || undefined);
        this.record(step, 'denied', { decision: 'deny', decidedBy: { kind: 'person', rule: 'Deny' }, reason: why || undefined });
        break;
      }
      case 'skip':
        step.result = { content: 'Not run: the user skipped this step.', isError: false };
        this.plan.setStatus(step, 'skipped');
        this.record(step, 'denied', { decision: 'deny', decidedBy: { kind: 'person', rule: 'Skip' }, reason: 'skipped' });
        break;
    }
    // After the plan has moved: an approved step is typed before the panel is redrawn.
    setImmediate(() => this.deps.changed());
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

  /** The gate's decision for the step's current command (judged once per command). */
  private async judge(step: PlanStep): Promise<StepApproval> {
    if (step.approval && step.judgedCommand === step.command) return step.approval;
    const proposed = step.command;
    const cwd = this.cwdOf(step);
    step.cwd = cwd || undefined;
    this.deps.changed();
    const decision = await this.deps.decide({ command: proposed, purpose: step.purpose, cwd, paneId: step.paneId, planId: this.plan.id, step: step.index });
    const approval: StepApproval = {
      decision: decision.decision,
      blocked: decision.blocked,
      rule: decision.rule,
      decidedBy: decision.decidedBy,
      grantable: !decision.blocked && decision.level !== 'red' && decision.decision === 'ask',
      shape: decision.shape,
    };
    // The user edited the step meanwhile: the caller sees the command changed and judges again.
    if (step.command !== proposed) return approval;
    if (decision.command !== proposed) {
      // A pre-exec hook changed the command: what runs is what the hook returned.
      this.record(step, 'edited', { command: decision.command, originalCommand: proposed, decidedBy: { kind: 'hook', rule: decision.modifiedBy ?? 'pre-exec' } });
      step.originalCommand ??= proposed;
      step.command = decision.command;
      step.changedByHook = decision.modifiedBy ?? 'pre-exec';
    }
    step.risk = { level: decision.level, reasons: decision.reasons };
    step.judgedCommand = step.command;
    step.approval = approval;
    this.plan.touch();
    this.deps.changed();
    return approval;
  }

  private approve(step: PlanStep, by: NonNullable<AuditRecord['decidedBy']>, detail?: string): void {
    this.plan.setStatus(step, 'approved', detail);
    this.record(step, 'approved', { decision: 'allow', decidedBy: by });
  }

  /** The gate denied the step: it is settled, the model is told why, and the plan waits for the user. */
  private gateDenied(step: PlanStep, decision: StepApproval): void {
    step.result = { content: `Not run: denied by ${decision.rule}.`, isError: true };
    this.plan.setStatus(step, 'denied', `denied by ${decision.rule}`);
    this.record(step, 'denied', { decision: 'deny', decidedBy: { kind: auditKind(decision.decidedBy), rule: decision.rule } });
    this.halt(step, `Step ${step.index} was denied by ${decision.rule}.`);
    this.deps.changed();
  }

  private record(step: PlanStep, event: AuditRecord['event'], extra: Partial<AuditRecord> = {}): void {
    this.deps.audit({
      event,
      step: step.index,
      command: step.command,
      cwd: step.cwd ?? (this.cwdOf(step) || undefined),
      pane: step.paneId,
      level: step.risk?.level,
      ...extra,
    });
  }

  private cwdOf(step: PlanStep): string {
    return (step.paneId !== undefined ? this.deps.pane(step.paneId)?.cwd : undefined) ?? '';
  }

  private async runStep(step: PlanStep): Promise<void> {
    const pane = step.paneId !== undefined ? this.deps.pane(step.paneId) : undefined;
    if (!pane) {
      step.result = { content: `Not run: pane ${step.paneId ?? '?'} no longer exists.`, isError: true };
      this.plan.setStatus(step, 'failed', 'the pane is gone');
      this.record(step, 'failed', { reason: 'the pane is gone' });
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
    const ownFilesBefore = this.deps.ownFiles?.snapshot();
    // run() types the command at once when the pane is at its prompt; the panel hears after.
    const running = runner.run();
    this.deps.changed();
    const outcome = await running;
    this.step = undefined;
    const ownFilesChanged = ownFilesBefore ? this.deps.ownFiles!.changedSince(ownFilesBefore) : [];
    switch (outcome.kind) {
      case 'finished': {
        const { block, output } = outcome;
        step.exitCode = block.exitCode;
        step.durationMs = (block.endedAt ?? Date.now()) - block.startedAt;
        const notes = [
          step.originalCommand
            ? `${step.changedByHook ? `The pre-exec hook ${step.changedByHook} changed` : 'The user edited'} your command before it ran; it ran as shown (you proposed: ${step.originalCommand}).`
            : '',
          outcome.timedOut ? `It ran past the step timeout and was interrupted.` : '',
          outcome.interrupted ? 'The user interrupted it (Ctrl+C).' : '',
        ].filter(Boolean);
        const ok = block.exitCode === 0 || (block.exitCode === undefined && !outcome.timedOut && !outcome.interrupted);
        if (ownFilesChanged.length > 0) notes.push(`It changed Tandem's own files (${ownFilesChanged.join(', ')}); the plan was stopped and the user told.`);
        step.result = { content: blockForModel(block, output, { note: notes.join(' ') || undefined }), isError: !ok || ownFilesChanged.length > 0 };
        const detail = outcome.timedOut ? 'timed out' : outcome.interrupted ? 'interrupted' : undefined;
        this.plan.setStatus(step, ok ? 'done' : 'failed', detail);
        this.record(step, 'executed', { exitCode: block.exitCode, durationMs: step.durationMs, reason: detail });
        this.deps.executed?.(step, block.cwd || this.cwdOf(step));
        if (ownFilesChanged.length > 0) {
          this.record(step, 'failed', { exitCode: block.exitCode, reason: `changed Tandem's own files: ${ownFilesChanged.join(', ')}` });
          this.plan.setStatus(step, 'failed', `changed Tandem's own files: ${ownFilesChanged.join(', ')}`);
          this.halt(step, `Step ${step.index} changed Tandem's own files (${ownFilesChanged.join(', ')}). Check them before going on.`);
        } else if (!ok) this.halt(step, `Step ${step.index} exited with code ${block.exitCode ?? 'unknown'}${detail ? ` (${detail})` : ''}.`);
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
        this.record(step, 'failed', { reason: outcome.message });
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

  /**
   * Waits for the user. A note that arrived while the gate was judging a step has already
   * woken nobody, so it is taken at once instead of waiting for a change that may not come.
   */
  private waitForChange(): Promise<void> {
    this.deps.changed();
    if (this.plan.note !== undefined) return Promise.resolve();
    return this.plan.changed();
  }
}

function blockedDetail(step: PlanStep): string {
  const why = step.risk?.reasons.join(' ') ?? '';
  return `blocked (RED${why ? `: ${why}` : ''}). Edit it into something safer, deny it or skip it.`;
}

function auditKind(by: StepApproval['decidedBy']): NonNullable<AuditRecord['decidedBy']>['kind'] {
  return by === 'default' ? 'policy' : by;
}

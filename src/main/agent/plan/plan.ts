import type { ChildAgentView, PlanAction, PlanState, PlanView, StepDecider, StepStatus } from '../../../shared/agent';
import { isOpen, isPending } from '../../../shared/planSteps';
import type { AuditRecord } from '../../safety/audit/auditEntry';
import { USER_CANCEL, type PlanEffect, type PlanEvent, type PlanWait, type StepEnd } from './planEvents';
import { auditDecidedBy, blockedDetail, gateDecider, isJudged, MAX_PLAN_STEPS, stepAudit, type PlanStep } from './planStep';
import { applyStepDecision } from './stepDecisions';
import { applyGateVerdict } from './gateVerdicts';
import { refuseAsking, refuseBeyondLimit } from './stepLimit';
import { applyStepEnd } from './stepEnds';

type StepActionEvent = Extract<PlanEvent, { kind: 'step-action' }>;

/** How a plan of an `!auto` run differs: see `Plan`. */
export interface PlanRules {
  /** GREEN steps no policy or hook asks about run without asking; RED ones are refused; a failure ends the plan. */
  auto?: boolean;
  /**
   * The run's step limit: steps proposed beyond the `left` it still has are refused on their
   * cards (`beyondLimit`), and the model is told the run's limit of `total` steps was reached.
   */
  stepLimit?: { left: number; total: number };
  /**
   * A `tandem agent` run: nobody can edit a blocked step there, so RED steps are refused and a
   * step that fails or is refused ends the plan, as in auto; `name` says who refused
   * ("tandem agent --approve=policy"). With `refuseAsking` nobody is there at all: every step
   * that would ask is refused — except, with `greenRuns`, GREEN steps only the built-in default
   * asks about, which run.
   */
  headless?: { name: string; refuseAsking: boolean; greenRuns: boolean };
}

/**
 * The steps of one model response and every decision on them, as a state machine with one
 * writer: `apply` takes an event (a proposal, the gate's verdict, the user's action, a step's
 * progress), checks it, changes the state, moves on by itself where no one needs to be
 * asked (the gate allowed the step, or Allow all covers it), and returns what must happen
 * outside (audit lines, a grant, a classification, post-exec hooks). `waitingFor` says what
 * the plan waits for. Every change wakes whoever waits in `changed()`.
 *
 * A plan of an auto run asks less and stops no one: GREEN steps that only the built-in default
 * would ask about are approved by the run, RED steps are refused with their reasons (never
 * blocked waiting for an edit), and a step that fails or is refused ends the plan, the rest
 * skipped, so its results go back to the model at once.
 */
export class Plan {
  private readonly list: PlanStep[] = [];
  private currentMode: PlanView['mode'] = 'ask';
  private currentState: PlanState = 'active';
  private reason: string | undefined;
  /** Why a cancelled plan was cancelled (its cards say it; a step that was running ends with it). */
  private stopDetail: string | undefined;
  private pendingNote: string | undefined;
  private waiters: (() => void)[] = [];

  constructor(
    readonly id: string,
    private readonly rules: PlanRules = {},
  ) {}

  get auto(): boolean {
    return this.rules.auto === true;
  }

  /** Who refuses RED steps and ends the plan at a failure, with nobody to edit or continue: an auto run, a headless one; undefined: the user decides. */
  private get refuser(): { name: string; by: 'auto' | 'headless' } | undefined {
    if (this.rules.headless) return { name: this.rules.headless.name, by: 'headless' };
    return this.auto ? { name: 'auto mode', by: 'auto' } : undefined;
  }

  get steps(): readonly Readonly<PlanStep>[] {
    return this.list;
  }

  get mode(): PlanView['mode'] {
    return this.currentMode;
  }

  get state(): PlanState {
    return this.currentState;
  }

  get haltReason(): string | undefined {
    return this.reason;
  }

  /** The user's notes: the rest of the plan is handed back to the model with them. */
  get note(): string | undefined {
    return this.pendingNote;
  }

  get settled(): boolean {
    return this.currentState === 'finished' || this.currentState === 'cancelled';
  }

  step(stepId: string): Readonly<PlanStep> | undefined {
    return this.list.find((step) => step.id === stepId);
  }

  stepForCall(toolUseId: string): Readonly<PlanStep> | undefined {
    return this.list.find((step) => step.toolUseId === toolUseId);
  }

  /** A spawn step's child agent reported: its card shows the new view. False when no step answers the call. */
  childChanged(toolUseId: string, child: ChildAgentView): boolean {
    const step = this.list.find((candidate) => candidate.toolUseId === toolUseId);
    if (step) step.child = child;
    return step !== undefined;
  }

  runningStep(): Readonly<PlanStep> | undefined {
    return this.list.find((step) => step.status === 'running');
  }

  waitingFor(): PlanWait {
    const running = this.runningStep();
    if (running) return { for: 'step', step: running };
    if (this.settled) return { for: 'nothing' };
    if (this.currentState === 'halted') return { for: 'user' };
    const next = this.nextOpen();
    if (!next) return { for: 'nothing' };
    if (!isJudged(next)) return { for: 'gate', step: next };
    return next.status === 'approved' ? { for: 'runner', step: next } : { for: 'user', step: next };
  }

  /**
   * The one step that takes decisions now: the next step, waiting for the user, or for its
   * check while no Allow all will decide it. None while a step runs or the plan is halted.
   */
  decisionStep(): Readonly<PlanStep> | undefined {
    if (this.currentState !== 'active') return undefined;
    const wait = this.waitingFor();
    if (wait.for === 'user' && wait.step?.status === 'proposed') return wait.step;
    if (wait.for === 'gate' && wait.step.status === 'proposed' && this.currentMode !== 'allow-all') return wait.step;
    return undefined;
  }

  /** Throws (with a message for the user) when the event is not allowed in this state; then nothing changed. */
  apply(event: PlanEvent): PlanEffect[] {
    const effects: PlanEffect[] = [];
    this.transition(event, effects);
    this.advance(effects);
    this.touch();
    return this.rules.headless ? effects.map((effect) => namingHeadlessRun(effect, this.rules.headless!.name)) : effects;
  }

  /** Resolves at the next change of the plan. */
  changed(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  view(): PlanView {
    return {
      id: this.id,
      mode: this.currentMode,
      state: this.currentState,
      haltReason: this.reason,
      steps: this.list.map(({ toolUseId: _toolUseId, tool: _tool, result: _result, judgedCommand: _judged, editRequest: _edit, visionRequest: _vision, uiRequest: _ui, ...view }) => ({ ...view })),
      decisionStepId: this.decisionStep()?.id,
      ...(this.auto ? { auto: true } : {}),
    };
  }

  private transition(event: PlanEvent, effects: PlanEffect[]): void {
    if (event.kind === 'proposed') {
      this.propose(event, effects);
      return;
    }
    if (event.kind === 'plan-action') {
      this.planAction(event.action);
      return;
    }
    if (event.kind === 'note') {
      this.pendingNote = this.pendingNote ? `${this.pendingNote}\n\n${event.text}` : event.text;
      if (this.currentState === 'halted') this.currentState = 'active';
      return;
    }
    if (event.kind === 'undone') {
      this.undone(event, effects);
      return;
    }
    if (event.kind === 'cancel') {
      if (this.settled) return;
      const stop = event.stop ?? USER_CANCEL;
      this.closeOpenSteps('skipped', stop.detail, `Not run: ${stop.reason}.`, stop.decider);
      this.currentState = 'cancelled';
      this.stopDetail = event.stop ? stop.detail : 'cancelled';
      return;
    }
    const step = this.list.find((candidate) => candidate.id === event.stepId);
    if (!step) {
      if (event.kind === 'step-action') throw new Error(`There is no step ${event.stepId} in this plan.`);
      return;
    }
    switch (event.kind) {
      case 'classified':
        if (step.command === event.command && !isJudged(step)) step.risk = event.risk;
        return;
      case 'judging':
        step.cwd = event.cwd || undefined;
        return;
      case 'edit-prepared':
        if (step.kind === 'edit' && isOpen(step)) step.edit = event.edit;
        return;
      case 'ui-prepared':
        if (step.kind === 'ui' && isOpen(step)) step.ui = event.ui;
        return;
      case 'judged':
        applyGateVerdict(step, event, { refuser: this.refuser, open: !this.settled, halt: (reason) => this.halt(reason), effects });
        return;
      case 'step-action':
        this.stepAction(step, event, effects);
        return;
      case 'started':
        this.setStatus(step, 'running');
        return;
      case 'progress':
        step.detail = event.detail;
        return;
      case 'block-started':
        step.blockId = event.blockId;
        return;
      case 'ended':
        this.ended(step, event.end, effects);
        return;
    }
  }

  private propose(event: Extract<PlanEvent, { kind: 'proposed' }>, effects: PlanEffect[]): void {
    if (this.list.length >= MAX_PLAN_STEPS) return;
    const step: PlanStep = {
      id: `${this.id}s${this.list.length + 1}`,
      index: this.list.length + 1,
      toolUseId: event.toolUseId,
      tool: event.tool,
      command: event.command,
      purpose: event.purpose,
      status: 'proposed',
      paneId: event.paneId,
      cwd: event.cwd || undefined,
      ...(event.edit ? { kind: 'edit' as const, editRequest: event.edit } : {}),
      ...(event.vision ? { kind: event.vision.look, visionRequest: event.vision } : {}),
      // Until it is judged, the action in words is its command.
      ...(event.ui ? { kind: 'ui' as const, uiRequest: event.ui, ui: { action: event.ui.action, description: event.command } } : {}),
      ...(event.child ? { child: event.child } : {}),
    };
    const limit = this.rules.stepLimit;
    const withinLimit = this.list.filter((candidate) => !candidate.beyondLimit).length;
    this.list.push(step);
    if (limit && withinLimit >= limit.left) refuseBeyondLimit(step, limit.total, this.refuser?.by ?? 'auto');
    else effects.push({ kind: 'classify', stepId: step.id });
  }

  private stepAction(step: PlanStep, event: StepActionEvent, effects: PlanEffect[]): void {
    if (step.status !== 'proposed') throw new Error(`Step ${step.index} is already ${step.status}.`);
    if (this.decisionStep()?.id !== step.id) throw new Error(`Step ${step.index} is not the step waiting for a decision.`);
    applyStepDecision(step, event, { approve: (decider, detail) => this.approve(step, decider, detail, effects), effects });
  }

  private planAction(action: PlanAction): void {
    if (this.settled) throw new Error('This plan is finished.');
    switch (action) {
      case 'allow-all':
      case 'step-through':
        this.currentMode = action;
        return;
      case 'deny-plan':
        this.closeOpenSteps('denied', 'plan denied', 'Not run: the user denied the whole plan.', 'Deny plan');
        // A running step ends first.
        if (!this.runningStep()) this.currentState = 'finished';
        return;
      case 'continue':
        if (this.currentState !== 'halted') throw new Error('The plan is not stopped.');
        this.currentState = 'active';
        this.reason = undefined;
        return;
      case 'stop':
        this.closeOpenSteps('skipped', 'plan stopped', `Not run: the user stopped the plan.${this.reason ? ` ${this.reason}` : ''}`, 'Stop');
        this.currentState = 'finished';
        return;
    }
  }

  private ended(step: PlanStep, end: StepEnd, effects: PlanEffect[]): void {
    const halt = applyStepEnd(step, end, { cancelled: this.currentState === 'cancelled' ? this.stopDetail : undefined, effects });
    if (halt) this.halt(halt);
  }

  /** Undo is offered once, on an edit step that was applied; the plan may be long settled. */
  private undone(event: Extract<PlanEvent, { kind: 'undone' }>, effects: PlanEffect[]): void {
    const step = this.list.find((candidate) => candidate.id === event.stepId);
    if (!step?.edit || step.status !== 'done') throw new Error('Only a finished edit step can be undone.');
    if (step.edit.undo?.restored) throw new Error(`Step ${step.index} was undone already.`);
    step.edit = { ...step.edit, undo: { restored: event.restored, message: event.message } };
    effects.push(this.audit(step, event.restored ? 'executed' : 'failed', { ...event.audit, command: `undo ${step.command}`, reason: event.message }));
  }

  /**
   * What follows from the state without anyone deciding: a note takes over once no step
   * runs, a plan with nothing left ends, the gate's allow or Allow all approves the next
   * step, and an approved step the gate blocks goes back to waiting.
   */
  private advance(effects: PlanEffect[]): void {
    if (this.settled || this.runningStep()) return;
    if (this.pendingNote !== undefined) {
      this.closeOpenSteps('skipped', 'replaced by the revised plan', 'Not run: before this step the user added a note (below); revise the remaining steps.', 'a note');
      this.currentState = 'finished';
      return;
    }
    if (this.currentState === 'halted') return;
    const next = this.nextOpen();
    if (!next) {
      this.currentState = 'finished';
      return;
    }
    if (!isJudged(next)) return;
    const approval = next.approval;
    if (approval.blocked) {
      if (next.status === 'approved') {
        this.setStatus(next, 'proposed', blockedDetail(next));
        next.decider = undefined;
      }
      return;
    }
    if (next.status !== 'proposed') return;
    // The card's rule line says who allowed it; no detail repeats it.
    if (approval.decision === 'allow') this.approve(next, gateDecider('allowed', approval), undefined, effects);
    // Only the built-in default asks about it: no policy rule, hook or personal check does.
    else if (this.greenRunsUnasked && approval.decision === 'ask' && approval.decidedBy === 'default' && next.risk?.level === 'green' && !approval.personal) {
      this.approve(next, { verdict: 'allowed', by: this.refuser?.by ?? 'auto', rule: 'GREEN: runs without asking' }, undefined, effects);
    }
    // Nobody is there to ask: the step is refused and the model hears why.
    else if (approval.decision === 'ask' && this.rules.headless?.refuseAsking) refuseAsking(next, this.rules.headless.name, effects, (reason) => this.halt(reason));
    // Allow all approves in order; RED steps were stopped above.
    else if (approval.decision === 'ask' && this.currentMode === 'allow-all' && !approval.personal) this.approve(next, { verdict: 'allowed', by: 'allow-all', rule: 'Allow all' }, undefined, effects);
  }

  /** GREEN steps only the built-in default asks about run without asking: an auto run, and a headless run with nobody to ask. */
  private get greenRunsUnasked(): boolean {
    return this.auto || this.rules.headless?.greenRuns === true;
  }

  private approve(step: PlanStep, decider: StepDecider, detail: string | undefined, effects: PlanEffect[]): void {
    this.setStatus(step, 'approved', detail);
    step.decider = decider;
    effects.push(this.audit(step, 'approved', { decision: 'allow', decidedBy: auditDecidedBy(decider) }));
  }

  /**
   * A failed step stops the plan while steps remain; the user continues or stops it (a note
   * also works). In an auto run no one is there to decide: the rest is skipped and the model
   * hears why at once.
   */
  private halt(reason: string): void {
    if (this.settled || !this.nextOpen()) return;
    const refuser = this.refuser;
    if (refuser) {
      this.closeOpenSteps('skipped', 'an earlier step did not succeed', `Not run: ${reason} Look at its result and decide what to do next.`, { verdict: 'skipped', by: refuser.by, rule: 'an earlier step did not succeed' });
      if (!this.runningStep()) this.currentState = 'finished';
      return;
    }
    this.currentState = 'halted';
    this.reason = reason;
  }

  /** Every step that has not run gets `status` and the same explanation for the model; `rule`: what the user did (or who decided). */
  private closeOpenSteps(status: 'denied' | 'skipped', detail: string, result: string, rule: string | StepDecider): void {
    for (const step of this.list.filter(isOpen)) {
      this.setStatus(step, status, detail);
      step.decider = typeof rule === 'string' ? { verdict: status, by: 'you', rule } : rule;
      step.result = { content: result, isError: status === 'denied' };
    }
  }

  private setStatus(step: PlanStep, status: StepStatus, detail?: string): void {
    step.status = status;
    step.detail = detail;
  }

  /** The first step not yet settled, in order. */
  private nextOpen(): PlanStep | undefined {
    return this.list.find(isPending);
  }

  private audit(step: PlanStep, event: AuditRecord['event'], extra: Partial<AuditRecord> = {}): PlanEffect {
    return stepAudit(step, event, extra);
  }

  private touch(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

/** In a `tandem agent` run, a person's decision names the run ("Allow once (tandem agent --approve=stdio)"); in a watcher's run (`watcher:NAME`) every decision does. */
function namingHeadlessRun(effect: PlanEffect, runName: string): PlanEffect {
  if (effect.kind !== 'audit' || !effect.record.decidedBy) return effect;
  if (effect.record.decidedBy.kind !== 'person' && !runName.startsWith('watcher:')) return effect;
  return { ...effect, record: { ...effect.record, decidedBy: { ...effect.record.decidedBy, rule: `${effect.record.decidedBy.rule} (${runName})` } } };
}

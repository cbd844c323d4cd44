import type { PlanAction, StepAction, StepRisk } from '../../../shared/agent';
import type { GateDecision, ProposedCommand } from '../../safety/approval/approvalGate';
import type { OwnFilesSnapshot, OwnFilesWatch } from '../../safety/approval/ownFilesWatch';
import type { AuditRecord } from '../../safety/audit/auditEntry';
import type { RiskResult } from '../../safety/commandRisk';
import type { RemoteHost } from '../../safety/riskTypes';
import type { AgentPane } from '../agentPane';
import type { ToolResultContent } from '../backends/modelBackend';
import type { EditSteps, UndoEnd } from '../fileEdits/editSteps';
import type { ProposedStep } from '../tools/agentTool';
import type { Plan } from './plan';
import type { PlanStep } from './planStep';
import type { PlanEffect, PlanEvent, PlanStop, StepEnd } from './planEvents';
import { EchoFirst } from './echoFirst';
import { beyondLimitAudit } from './stepLimit';
import { StepRunner, type FinishedRun } from './stepRunner';
import type { UiSteps } from '../vision/uiSteps';

export interface PlanRunnerDeps {
  pane(paneId: number): AgentPane | undefined;
  timeoutMs(): number;
  /** The environment steps run with (no pager, the step's trace context), or undefined to run them as the user's commands. */
  stepEnv?(step?: Readonly<PlanStep>): Readonly<Record<string, string>> | undefined;
  /** The plan changed at `at` (epoch ms; told a moment later while a step's keys are on their way): its steps' spans follow (telemetry/stepSpans.ts). */
  stepsChanged?(steps: readonly Readonly<PlanStep>[], at: number): void;
  /** A command's risk where it runs (`remote`: on that host), with the variables it gets (classified once per command text: CommandRisks). */
  risk(command: string, cwd: string, environment?: Readonly<Record<string, string>>, remote?: RemoteHost): Promise<RiskResult>;
  /** The approval gate: policy, hooks and session grants; `risk` is the command's classification when known. */
  decide(proposed: ProposedCommand, risk: RiskResult | undefined): Promise<GateDecision>;
  /** "Allow for this session": the shape stops asking until the window closes. */
  grant(shape: string, command: string): void;
  /** One line of the audit trail (conversation and plan are filled in by the caller). */
  audit(record: AuditRecord): void;
  /** What the model is told about a step that ran to its end (its tool renders it). */
  report(step: Readonly<PlanStep>, run: FinishedRun, ownFilesChanged: string[]): string;
  /** A step's command started as this block (the history records who ran it). */
  blockStarted?(step: Readonly<PlanStep>, blockId: string): void;
  /** A step ran to its end: post-exec hooks. */
  executed?(step: Readonly<PlanStep>, cwd: string): void;
  /** Tandem's own files (config, policy, hooks): a step that changes them stops the plan. */
  ownFiles?: Pick<OwnFilesWatch, 'snapshot' | 'changedSince'>;
  /** Edit steps: their change worked out and judged, then written (fileEdits/EditSteps). */
  edits?: Pick<EditSteps, 'judge' | 'apply'>;
  /** Look steps (screenshots, the window list): judged by `[approval.vision]`, run by the desktop capability (vision/LookSteps). */
  looks?: { judge(step: Readonly<PlanStep>): Promise<GateDecision>; run(step: Readonly<PlanStep>, signal: AbortSignal): Promise<StepEnd> };
  /** UI action steps (clicks, typing …): resolved to the window they reach and judged by `[approval.ui]`, then done (vision/UiSteps). */
  ui?: Pick<UiSteps, 'judge' | 'run'>;
  /** The conversation, for the hooks that judge UI actions. */
  conversationId?: string;
  /** The plan or a step changed: show it. */
  changed(): void;
}

/**
 * Drives one plan: feeds the plan's state machine what happens (proposals, classifications,
 * the gate's verdicts, the user's actions, the step in the pane) and does what it asks in
 * return. Approved steps run one at a time in their pane; nothing runs that the user did not
 * approve (step by step, or with Allow all) or the gate did not allow.
 */
export class PlanRunner {
  private stepRunner: StepRunner | undefined;
  /** Aborts the running look or UI step (a screenshot's or OCR's tools are killed, a wait ends). */
  private screenAbort: AbortController | undefined;
  /** The panel's update and audit lines wait while a step's keys go to its shell and their echo comes back. */
  private readonly echoFirst = new EchoFirst();
  private changePending = false;

  constructor(
    readonly plan: Plan,
    private readonly deps: PlanRunnerDeps,
  ) {}

  get runningStep(): boolean {
    return this.plan.runningStep() !== undefined;
  }

  /** A message from the user now steers the plan (as a note): no step runs and the next one waits for a decision or its check. */
  get steerable(): boolean {
    const wait = this.plan.waitingFor();
    return wait.for === 'user' || (wait.for === 'gate' && wait.step.status === 'proposed');
  }

  /** The plan cannot move until the user decides something. */
  get waitingForUser(): boolean {
    return this.plan.waitingFor().for === 'user';
  }

  get detail(): string | undefined {
    const running = this.plan.runningStep();
    if (running) return running.detail;
    return this.plan.state === 'halted' ? this.plan.haltReason : undefined;
  }

  /** A tool call of the streaming response proposes a step; false when the plan is full. */
  propose(call: { id: string; name: string }, step: ProposedStep): boolean {
    const { id: toolUseId, name: tool } = call;
    this.apply({ kind: 'proposed', toolUseId, tool, ...step, cwd: this.cwdOf(step.paneId) });
    return this.plan.stepForCall(toolUseId) !== undefined;
  }

  /** The response is complete: its steps are put to the user, and into the audit trail (those beyond an auto run's limit with their refusal). */
  present(): void {
    for (const step of this.plan.steps) {
      this.deps.audit({ event: 'proposed', step: step.index, command: step.command, cwd: this.cwdOf(step.paneId) || undefined, host: this.remoteOf(step.paneId)?.host, pane: step.paneId });
      const refused = beyondLimitAudit(step);
      if (refused) this.deps.audit(refused);
    }
  }

  /** Resolves once the plan is settled and no step runs, with the tool result of each step. */
  async run(): Promise<{ toolUseId: string; content: ToolResultContent; isError: boolean }[]> {
    for (;;) {
      const wait = this.plan.waitingFor();
      if (wait.for === 'nothing') break;
      if (wait.for === 'gate') await this.judge(wait.step);
      else if (wait.for === 'runner') await this.runStep(wait.step);
      else await this.waitForChange();
    }
    this.echoFirst.release();
    return this.plan.steps.map((step) => ({
      toolUseId: step.toolUseId,
      content: step.result?.content ?? 'Not run.',
      isError: step.result?.isError ?? true,
    }));
  }

  /** Resolves once the panel has heard of the decision (after the echo of a step it typed). */
  planAction(action: PlanAction): Promise<void> {
    this.echoFirst.decided();
    this.apply({ kind: 'plan-action', action });
    return this.echoFirst.passed();
  }

  /** Resolves once the panel has heard of the decision (after the echo of a step it typed). */
  stepAction(stepId: string, action: StepAction, command?: string, reason?: string): Promise<void> {
    // An approved step is typed before the panel is redrawn or the approval audited.
    this.echoFirst.decided();
    this.apply({ kind: 'step-action', stepId, action, command, reason });
    return this.echoFirst.passed();
  }

  addNote(note: string): void {
    this.apply({ kind: 'note', text: note });
  }

  /**
   * Cancel the plan: steps not yet run will not run; with `everything`, the running one is
   * ended too. `stop` says who or what cancelled it (a plain cancel when absent).
   */
  cancel(everything: boolean, stop?: PlanStop): void {
    if (this.plan.settled) return;
    this.apply({ kind: 'cancel', stop }, false);
    if (everything) this.interruptRunningStep(stop);
    this.changed();
  }

  interruptRunningStep(stop?: PlanStop): void {
    this.stepRunner?.interrupt(stop && { reason: stop.reason, ctrlCSent: stop.ctrlCSent });
    // A look or UI step reads why from its signal (the user, or what ended an auto run).
    this.screenAbort?.abort(stop?.reason);
  }

  /** Undo of a finished edit step was tried: the card says how it went. */
  undone(stepId: string, outcome: UndoEnd): void {
    this.apply({ kind: 'undone', stepId, ...outcome });
  }

  private apply(event: PlanEvent, notify = true): void {
    for (const effect of this.plan.apply(event)) this.carryOut(effect);
    if (this.deps.stepsChanged) {
      const at = Date.now();
      this.echoFirst.run(() => this.deps.stepsChanged?.(this.plan.steps, at));
    }
    if (notify) this.changed();
  }

  /** The panel hears of the change (once, after a typed step's echo). */
  private changed(): void {
    if (this.changePending) return;
    this.changePending = true;
    this.echoFirst.run(() => {
      this.changePending = false;
      this.deps.changed();
    });
  }

  private carryOut(effect: PlanEffect): void {
    switch (effect.kind) {
      case 'audit': {
        const record = { ...effect.record, cwd: effect.record.cwd ?? (this.cwdOf(effect.record.pane) || undefined) };
        this.echoFirst.run(() => this.deps.audit(record));
        return;
      }
      case 'grant':
        this.deps.grant(effect.shape, effect.command);
        return;
      case 'classify': {
        const step = this.plan.step(effect.stepId);
        // An edit step's risk comes with the gate's verdict on its path, a look's with the gate's verdict.
        if (step && step.kind !== 'edit' && !step.visionRequest && !step.uiRequest) this.classify(step);
        return;
      }
      case 'executed': {
        const step = this.plan.step(effect.stepId);
        if (step) this.deps.executed?.(step, effect.cwd || this.cwdOf(step.paneId));
        return;
      }
    }
  }

  private classify(step: Readonly<PlanStep>): void {
    const { id: stepId, command } = step;
    const classified = (risk: StepRisk) => this.apply({ kind: 'classified', stepId, command, risk });
    this.deps.risk(command, this.cwdOf(step.paneId), this.envOf(step.paneId), this.remoteOf(step.paneId)).then(
      ({ level, reasons }) => classified({ level, reasons }),
      (error: unknown) => classified({ level: 'yellow', reasons: [`It could not be classified (${error instanceof Error ? error.message : String(error)}).`] }),
    );
  }

  /** The gate's verdict on the step's current command, in the cwd it will run in. */
  private async judge(step: Readonly<PlanStep>): Promise<void> {
    const { id: stepId, command } = step;
    const cwd = this.cwdOf(step.paneId);
    this.apply({ kind: 'judging', stepId, cwd });
    if (step.kind === 'edit') {
      await this.judgeEdit(step, cwd);
      return;
    }
    if (step.visionRequest) {
      const decision = await this.deps.looks?.judge(step);
      if (decision) this.apply({ kind: 'judged', stepId, command, decision });
      else this.apply({ kind: 'ended', stepId, end: { kind: 'looked', ok: false, content: 'Not run: looking at the screen is not available here.', report: 'not available here' } });
      return;
    }
    if (step.uiRequest) {
      await this.judgeUi(step, cwd);
      return;
    }
    // A classification that failed leaves the gate to classify (and report) it itself.
    const environment = this.envOf(step.paneId);
    const remote = this.remoteOf(step.paneId);
    const risk = await this.deps.risk(command, cwd, environment, remote).catch(() => undefined);
    const decision = await this.deps.decide({ command, purpose: step.purpose, cwd, paneId: step.paneId, planId: this.plan.id, step: step.index, environment, remote }, risk);
    this.apply({ kind: 'judged', stepId, command, decision });
  }

  private async judgeEdit(step: Readonly<PlanStep>, cwd: string): Promise<void> {
    const { id: stepId, command } = step;
    const judged = this.deps.edits ? await this.deps.edits.judge(step, cwd, this.plan.id) : { ok: false as const, message: 'Not changed: file edits are not available here.', audit: {} };
    if (!judged.ok) {
      this.apply({ kind: 'ended', stepId, end: { kind: 'edited', ok: false, report: judged.message, audit: judged.audit } });
      return;
    }
    if (judged.edit) this.apply({ kind: 'edit-prepared', stepId, edit: judged.edit }, false);
    this.apply({ kind: 'judged', stepId, command, decision: judged.decision });
  }

  private async judgeUi(step: Readonly<PlanStep>, cwd: string): Promise<void> {
    const { id: stepId, command } = step;
    const judged = this.deps.ui
      ? await this.deps.ui.judge(step, { auto: this.plan.auto, cwd, planId: this.plan.id, conversationId: this.deps.conversationId })
      : { ok: false as const, message: 'Not done: UI actions are not available here.' };
    if (!judged.ok) {
      this.apply({ kind: 'ended', stepId, end: { kind: 'acted', ok: false, content: judged.message, report: judged.message.replace(/^Not done: /, '') } });
      return;
    }
    this.apply({ kind: 'ui-prepared', stepId, ui: judged.view }, false);
    this.apply({ kind: 'judged', stepId, command, decision: judged.decision });
  }

  private async runStep(step: Readonly<PlanStep>): Promise<void> {
    const stepId = step.id;
    if (step.uiRequest && this.deps.ui) {
      this.apply({ kind: 'started', stepId });
      const abort = (this.screenAbort = new AbortController());
      const end = await this.deps.ui.run(step, abort.signal).finally(() => (this.screenAbort = undefined));
      this.apply({ kind: 'ended', stepId, end });
      return;
    }
    if (step.kind === 'edit') {
      this.apply({ kind: 'started', stepId });
      const end = this.deps.edits ? await this.deps.edits.apply(step) : ({ kind: 'edited', ok: false, report: 'Not changed: file edits are not available here.', audit: {} } as const);
      this.apply({ kind: 'ended', stepId, end });
      return;
    }
    if (step.visionRequest && this.deps.looks) {
      this.apply({ kind: 'started', stepId });
      const abort = (this.screenAbort = new AbortController());
      const end = await this.deps.looks.run(step, abort.signal).finally(() => (this.screenAbort = undefined));
      this.apply({ kind: 'ended', stepId, end });
      return;
    }
    const pane = step.paneId !== undefined ? this.deps.pane(step.paneId) : undefined;
    if (!pane) {
      this.apply({ kind: 'ended', stepId, end: { kind: 'no-pane' } });
      return;
    }
    this.apply({ kind: 'started', stepId }, false);
    const ownFiles: { before?: OwnFilesSnapshot } = {};
    const runner = new StepRunner(pane, step.command, {
      timeoutMs: this.deps.timeoutMs(),
      env: () => this.deps.stepEnv?.(step),
      onDetail: (detail) => this.apply({ kind: 'progress', stepId, detail }),
      onBlockStarted: (block) => {
        this.deps.blockStarted?.(step, block.id);
        this.apply({ kind: 'block-started', stepId, blockId: block.id });
      },
      // Right before Enter (not while it waits for its prompt: what runs there is not the step).
      beforeEnter: () => (ownFiles.before = this.deps.ownFiles?.snapshot()),
      onTyped: () => this.echoFirst.keysWritten(),
      onEchoed: () => this.echoFirst.echoed(),
    });
    this.stepRunner = runner;
    // run() types the command at once when the pane is at its prompt; the panel hears after its echo.
    const running = runner.run();
    this.changed();
    const outcome = await running;
    // Whatever still waits goes before the step's end, in order.
    this.echoFirst.release();
    this.stepRunner = undefined;
    const ownFilesChanged = ownFiles.before ? this.deps.ownFiles!.changedSince(ownFiles.before) : [];
    const end: StepEnd = outcome.kind === 'finished' ? { kind: 'finished', run: outcome, report: this.deps.report(step, outcome, ownFilesChanged), ownFilesChanged } : outcome;
    this.apply({ kind: 'ended', stepId, end });
  }

  /** Waits for the user (or the gate, or a step): the next change of the plan. */
  private waitForChange(): Promise<void> {
    this.changed();
    return this.plan.changed();
  }

  /** The variables a step in that pane will run with: only where its shell integration exports them. */
  private envOf(paneId: number | undefined): Readonly<Record<string, string>> | undefined {
    const pane = paneId !== undefined ? this.deps.pane(paneId) : undefined;
    return pane?.stepEnvApplies ? this.deps.stepEnv?.() : undefined;
  }

  /** The other host the pane's shell is on (reached with `ssh`), if it is on one. */
  private remoteOf(paneId: number | undefined): RemoteHost | undefined {
    const remote = paneId !== undefined ? this.deps.pane(paneId)?.remote : undefined;
    return remote ? { host: remote.host, user: remote.user, ...(remote.home ? { home: remote.home } : {}) } : undefined;
  }

  private cwdOf(paneId: number | undefined): string {
    return (paneId !== undefined ? this.deps.pane(paneId)?.cwd : undefined) ?? '';
  }
}

import type { PlanState, PlanStepView, PlanView, StepRisk, StepStatus } from '../../shared/agent';

/** Classifies a command (a shell parse); never rejects for a command it cannot read: that is YELLOW at least. */
export type RiskClassifier = (command: string, cwd: string) => Promise<StepRisk>;

/** More steps than this in one response are refused (the model is told). */
export const MAX_PLAN_STEPS = 50;

export interface PlanStep extends PlanStepView {
  /** The tool call this step answers. */
  toolUseId: string;
  /** What the model is told about this step once the plan settles. */
  result?: { content: string; isError: boolean };
  /** Settles once `risk` is known for the current command. */
  riskReady?: Promise<void>;
  /** The command the approval gate last judged; `approval` belongs to it. */
  judgedCommand?: string;
  /** Audit: the gate's RED block was recorded for this command already. */
  blockAudited?: string;
}

/**
 * The steps of one model response and the user's decisions on them. Pure state: the plan
 * runner drives it, the agent session shows it. Every change bumps `version` and wakes
 * whoever waits in `changed()`.
 */
export class Plan {
  readonly steps: PlanStep[] = [];
  mode: PlanView['mode'] = 'ask';
  state: PlanState = 'active';
  haltReason: string | undefined;
  /** A note the user added between steps: the rest of the plan is handed back to the model. */
  note: string | undefined;
  private waiters: (() => void)[] = [];

  constructor(readonly id: string) {}

  addStep(step: { toolUseId: string; command: string; purpose: string; paneId?: number }): PlanStep | undefined {
    if (this.steps.length >= MAX_PLAN_STEPS) return undefined;
    const added: PlanStep = {
      id: `${this.id}s${this.steps.length + 1}`,
      index: this.steps.length + 1,
      toolUseId: step.toolUseId,
      command: step.command,
      purpose: step.purpose,
      status: 'proposed',
      paneId: step.paneId,
    };
    this.steps.push(added);
    this.touch();
    return added;
  }

  step(stepId: string): PlanStep | undefined {
    return this.steps.find((step) => step.id === stepId);
  }

  /** The first step not yet settled, in order. */
  nextOpen(): PlanStep | undefined {
    return this.steps.find((step) => step.status === 'proposed' || step.status === 'approved' || step.status === 'running');
  }

  get settled(): boolean {
    return this.state === 'finished' || this.state === 'cancelled';
  }

  setStatus(step: PlanStep, status: StepStatus, detail?: string): void {
    step.status = status;
    step.detail = detail;
    this.touch();
  }

  /** Every step that has not run gets `status` and the same explanation for the model. */
  closeOpenSteps(status: 'denied' | 'skipped', detail: string, result: string): void {
    for (const step of this.steps) {
      if (step.status !== 'proposed' && step.status !== 'approved') continue;
      step.status = status;
      step.detail = detail;
      step.result = { content: result, isError: status === 'denied' };
    }
    this.touch();
  }

  touch(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  /** Resolves at the next change of the plan. */
  changed(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  view(): PlanView {
    return {
      id: this.id,
      mode: this.mode,
      state: this.state,
      haltReason: this.haltReason,
      steps: this.steps.map(({ toolUseId: _toolUseId, result: _result, riskReady: _riskReady, judgedCommand: _judged, blockAudited: _audited, ...view }) => ({
        ...view,
      })),
    };
  }
}

/** Starts classifying a step's command; `changed` runs when its risk is known. */
export function assessStepRisk(step: PlanStep, classify: RiskClassifier, cwd: string, changed: () => void): void {
  const command = step.command;
  step.risk = undefined;
  step.riskReady = classify(command, cwd).then(
    (risk) => {
      if (step.command === command) step.risk = risk;
      changed();
    },
    (error: unknown) => {
      if (step.command === command) {
        step.risk = { level: 'yellow', reasons: [`It could not be classified (${error instanceof Error ? error.message : String(error)}).`] };
      }
      changed();
    },
  );
}

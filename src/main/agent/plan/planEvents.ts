import type { ToolResultContent } from '../backends/modelBackend';
import type { ChildAgentView, EditStepView, PlanAction, StepAction, StepDecider, StepRisk } from '../../../shared/agent';
import type { ScreenshotView, UiStepView } from '../../../shared/screenSteps';
import type { GateDecision } from '../../safety/approval/approvalGate';
import type { AuditRecord } from '../../safety/audit/auditEntry';
import type { EditRequest } from '../fileEdits/fileEdit';
import type { UiRequest } from '../vision/uiRequest';
import type { VisionRequest } from '../vision/visionRequest';
import type { AuditEffect, PlanStep } from './planStep';
import type { StepOutcome } from './stepRunner';

/** Everything that moves a plan, from whoever it comes: the model's tool calls, the gate, the user, the step being run. */
export type PlanEvent =
  /** A tool call of the streaming response proposes a step (ignored past MAX_PLAN_STEPS). */
  | { kind: 'proposed'; toolUseId: string; tool: string; command: string; purpose: string; paneId?: number; cwd: string; edit?: { path: string; request: EditRequest }; vision?: VisionRequest; ui?: UiRequest; child?: ChildAgentView }
  /** An edit step's change, worked out against the file as it is when the step comes up (before the gate judges it). */
  | { kind: 'edit-prepared'; stepId: string; edit: EditStepView }
  /** A UI action step was resolved: its action in words, the window it reaches, where it lands on the last screenshot. */
  | { kind: 'ui-prepared'; stepId: string; ui: UiStepView }
  /** Undo of a finished edit step: the file has its previous content again, or why not. */
  | { kind: 'undone'; stepId: string; restored: boolean; message: string; audit: EditAudit }
  /** The risk of `command` is known (ignored when the step's command has changed since). */
  | { kind: 'classified'; stepId: string; command: string; risk: StepRisk }
  /** The gate starts judging the step's command where it will run. */
  | { kind: 'judging'; stepId: string; cwd: string }
  /** The gate's verdict on `command` (ignored when the user edited the step meanwhile). */
  | { kind: 'judged'; stepId: string; command: string; decision: GateDecision }
  | { kind: 'step-action'; stepId: string; action: StepAction; command?: string; reason?: string }
  | { kind: 'plan-action'; action: PlanAction }
  /** A note from the user: once no step runs, the rest of the plan goes back to the model. */
  | { kind: 'note'; text: string }
  | { kind: 'cancel'; stop?: PlanStop }
  /** The approved step is being typed into its pane. */
  | { kind: 'started'; stepId: string }
  /** Progress while it runs: "waiting for the prompt", "timed out: interrupted" ... */
  | { kind: 'progress'; stepId: string; detail: string | undefined }
  | { kind: 'block-started'; stepId: string; blockId: string }
  | { kind: 'ended'; stepId: string; end: StepEnd };

/**
 * Who or what cancelled a plan, in the words of its cards and of what the model is told; a
 * plain cancel (Esc in a conversation) when absent.
 */
export interface PlanStop {
  /** The card's line on a step that did not run: "skipped by auto mode · its token budget of 1,000 was used up". */
  decider: StepDecider;
  /** The step's detail: "auto run stopped (Stop on its banner)". */
  detail: string;
  /** For the model, after "Not run: " or "It was interrupted: ": "the user pressed Stop on the auto run's banner". */
  reason: string;
  /** The user's own Ctrl+C already reached the pane: Tandem sends none of its own unless the step goes on. */
  ctrlCSent?: boolean;
}

/** A plain cancel: Esc or Ctrl+C in the AI panel. */
export const USER_CANCEL: PlanStop = {
  decider: { verdict: 'skipped', by: 'you', rule: 'cancelled the plan' },
  detail: 'plan cancelled',
  reason: 'the user cancelled the plan',
};

/** How a step's run ended. */
export type StepEnd =
  | {
      kind: 'finished';
      run: Extract<StepOutcome, { kind: 'finished' }>;
      /** What the model is told about it (the tool renders it). */
      report: string;
      /** Tandem's own files the step changed although the gate let it run. */
      ownFilesChanged: string[];
    }
  | Exclude<StepOutcome, { kind: 'finished' }>
  /** An edit step was applied (`ok`), or could not be: `report` is what the model is told. */
  | { kind: 'edited'; ok: boolean; report: string; audit: EditAudit }
  /** A look step ran (`ok`) or could not (`interrupted`: stopped by the user): `content` is what the model is told, `screenshot` what the card shows. */
  | { kind: 'looked'; ok: boolean; content: ToolResultContent; report: string; screenshot?: ScreenshotView; interrupted?: boolean }
  /** A UI action step ran (`ok`) or could not (`interrupted`: stopped by the user): `content` is what the model is told. */
  | { kind: 'acted'; ok: boolean; content: string; report: string; interrupted?: boolean }
  /** Its pane was closed before it could be typed. */
  | { kind: 'no-pane' };

/** What the audit trail records of a file edit: the file, and its sha256 before and after. */
export type EditAudit = Pick<AuditRecord, 'path' | 'sha256Before' | 'sha256After'>;

/** What a transition asks of the world; the plan runner carries them out in order. */
export type PlanEffect =
  | AuditEffect
  /** "Allow for this session": the gate stops asking for this shape. */
  | { kind: 'grant'; shape: string; command: string }
  /** The step's command is new: classify it. */
  | { kind: 'classify'; stepId: string }
  /** The step ran to its end: the post-exec hooks hear of it. */
  | { kind: 'executed'; stepId: string; cwd: string };

/** What the plan waits for before it can move on. */
export type PlanWait =
  /** It is settled (a step stopped by the user may still be running). */
  | { for: 'nothing' }
  /** The step in the pane to end. */
  | { for: 'step'; step: Readonly<PlanStep> }
  /** The gate's verdict on the next step's command. */
  | { for: 'gate'; step: Readonly<PlanStep> }
  /** The runner: the next step is approved and judged, ready to be typed. */
  | { for: 'runner'; step: Readonly<PlanStep> }
  /** The user: a decision on the next step (it may be blocked), or Continue / Stop / a note after a halt. */
  | { for: 'user'; step?: Readonly<PlanStep> };

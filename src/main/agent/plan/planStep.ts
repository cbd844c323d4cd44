import type { PlanStepView, StepApproval, StepDecider } from '../../../shared/agent';
import type { AuditRecord } from '../../safety/audit/auditEntry';
import { reasonClauses } from '../../safety/reasonSentences';
import type { ToolResultContent } from '../backends/modelBackend';
import type { EditRequest } from '../fileEdits/fileEdit';
import type { UiRequest } from '../vision/uiRequest';
import type { VisionRequest } from '../vision/visionRequest';

/** More steps than this in one response are refused (the model is told). */
export const MAX_PLAN_STEPS = 50;

/** A step of a plan: a tool call waiting for its decision, then for its run. */
export interface PlanStep extends PlanStepView {
  /** The tool call this step answers, and its tool. */
  toolUseId: string;
  tool: string;
  /** What the model is told about this step once the plan settles. */
  result?: { content: ToolResultContent; isError: boolean };
  /** The command the approval gate last judged; `approval` belongs to it. */
  judgedCommand?: string;
  /** An edit step's file as the model named it, and the change it asked for. */
  editRequest?: { path: string; request: EditRequest };
  /** A look step's request. */
  visionRequest?: VisionRequest;
  /** A UI action step's request. */
  uiRequest?: UiRequest;
}

/** The gate's verdict belongs to the step's current command. */
export function isJudged(step: PlanStep): step is PlanStep & { approval: StepApproval } {
  return step.approval !== undefined && step.judgedCommand === step.command;
}

export function blockedDetail(step: PlanStepView): string {
  const why = reasonClauses(step.risk?.reasons ?? []);
  return `blocked (RED${why ? `: ${why}` : ''}). Edit it into something safer, deny it or skip it.`;
}

/** The gate decided the step: the policy (its defaults included), a hook, a session grant or the built-in rules. */
export function gateDecider(verdict: StepDecider['verdict'], approval: StepApproval): StepDecider {
  const by = approval.decidedBy === 'default' ? 'policy' : approval.decidedBy === 'person' ? 'you' : approval.decidedBy;
  return { verdict, by, rule: approval.rule };
}

/** The audit trail names a person for the user's own decisions, Allow all included. */
export function auditDecidedBy(decider: StepDecider): NonNullable<AuditRecord['decidedBy']> {
  return { kind: decider.by === 'you' || decider.by === 'allow-all' ? 'person' : decider.by, rule: decider.rule };
}

/** A line of the audit trail a transition asks for (the runner adds the conversation, the plan and, when unknown, the cwd). */
export interface AuditEffect {
  kind: 'audit';
  record: AuditRecord;
}

/** An audit line about a step (what the plan returns as an effect). */
export function stepAudit(step: PlanStep, event: AuditRecord['event'], extra: Partial<AuditRecord> = {}): AuditEffect {
  return {
    kind: 'audit',
    record: { event, step: step.index, command: step.ui?.description ?? step.command, cwd: step.cwd, host: step.approval?.host, pane: step.paneId, level: step.risk?.level, ...extra },
  };
}

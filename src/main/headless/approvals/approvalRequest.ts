import type { StepAction } from '../../../shared/agent';
import type { StreamEventOf } from '../agentStream';
import { kindOf, type PendingApproval } from '../conversationEvents';
import { unifiedDiff } from '../unifiedDiff';

export type ApprovalRequest = StreamEventOf<'approval_request'>;

/** An answer to a child agent's request, as its `approval` message carries it. */
export interface RelayedAnswer {
  decision: 'allow' | 'allow_session' | 'deny';
  note?: string;
  command?: string;
}

/** Who answers the steps that wait for a decision: a person at the terminal, or a program over stdio. */
export interface Approver {
  ask(request: ApprovalRequest, pending: PendingApproval): void;
  /** A child agent's step that asks (it bubbles up): the answer goes back to the child. */
  relay(request: ApprovalRequest, reply: (answer: RelayedAnswer) => void): void;
  dispose(): void;
}

/** What an approver does with its answer: the session's step decision. */
export type Decide = (pending: PendingApproval, action: StepAction, options?: { command?: string; reason?: string }) => void;

/** The `approval_request` event for a step; `id` is unique per request (an edited step asks again). */
export function approvalRequest(pending: PendingApproval, id: string): ApprovalRequest {
  const { plan, step } = pending;
  return {
    type: 'approval_request',
    id,
    plan_id: plan.id,
    step_id: step.id,
    index: step.index,
    kind: kindOf(step),
    command: step.command,
    ...(step.edit ? { path: step.edit.path, diff: unifiedDiff(step.edit.path, step.edit.diff, step.edit.creates) } : {}),
    purpose: step.purpose,
    ...(step.risk ? { level: step.risk.level } : {}),
    reasons: step.risk?.reasons ?? [],
    rule: step.approval?.rule ?? '',
    session_grant: step.approval?.grantable === true,
    ...(step.approval?.host !== undefined ? { host: step.approval.host } : {}),
  };
}

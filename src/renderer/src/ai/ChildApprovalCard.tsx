import { useState } from 'react';
import type { ChildApprovalView } from '../../../shared/agent';
import { childAskText } from './childAgentText';
import { DecisionButton, DenyReasonToggle } from './DecisionButton';
import { StepDenyReason } from './StepDenyReason';
import { UnifiedDiffText } from './UnifiedDiffText';

/** Sends the user's answer to the child (a deny's reason goes to its model). */
export type ChildDecide = (requestId: string, decision: 'allow' | 'deny', note?: string) => void;

interface ChildApprovalCardProps {
  decide: ChildDecide;
  /** "Child agent · depth 1 · pid 1234": who asks. */
  who: string;
  request: ChildApprovalView;
}

/**
 * A child agent's step that its own gate would ask about, bubbled up to this panel: the user
 * decides it here, and the answer goes back to the child (a deny's reason to its model).
 */
export function ChildApprovalCard({ decide: answer, who, request }: ChildApprovalCardProps) {
  const [askingReason, setAskingReason] = useState(false);
  const ask = childAskText(request);
  const decide = (decision: 'allow' | 'deny', note?: string) => answer(request.id, decision, note?.trim() || undefined);
  return (
    <div
      className={`child-approval child-approval--${request.level ?? 'unknown'}`}
      role="group"
      aria-label={`${ask} ${request.command}`}
      data-testid="child-approval"
      data-request-id={request.id}
      data-kind={request.kind}
      data-risk={request.level}
      data-command={request.command}
    >
      <div className="child-approval__who">
        <span className="child-approval__ask">{ask}</span>
        <span className="child-approval__from">{who}</span>
      </div>
      <div className="plan-step__head">
        <code className="plan-step__command">{request.command}</code>
        {request.level && (
          <span className={`plan-step__risk plan-step__risk--${request.level}`} data-testid="child-approval-risk">
            {request.level}
          </span>
        )}
      </div>
      {request.purpose && <div className="plan-step__purpose">{request.purpose}</div>}
      {request.diff && <UnifiedDiffText text={request.diff} />}
      {request.reasons.length > 0 && (
        <ul className="child-approval__reasons" data-testid="child-approval-reasons">
          {request.reasons.map((reason, index) => (
            <li key={index}>{reason}</li>
          ))}
        </ul>
      )}
      <div className="plan-step__rule" data-testid="child-approval-rule">
        asks you · {request.rule}
      </div>
      <div className="plan-step__buttons">
        <DecisionButton action="child-allow" title="Let the child agent do this, once" onDecide={() => decide('allow')}>
          Allow
        </DecisionButton>
        <DecisionButton action="child-deny" title="The child agent does not do this; its model is told" onDecide={() => decide('deny')}>
          Deny
        </DecisionButton>
        <DenyReasonToggle action="child-deny-with-reason" told="child agent" open={askingReason} onToggle={() => setAskingReason((value) => !value)} />
      </div>
      {askingReason && (
        <StepDenyReason
          draftKey={`child-reason:${request.id}`}
          onDeny={(reason) => decide('deny', reason)}
          onClose={() => setAskingReason(false)}
          told="child agent"
          testId="child-deny-reason"
        />
      )}
    </div>
  );
}

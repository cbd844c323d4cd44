import { useState } from 'react';
import type { PlanStepView, StepAction, StepDecider, StepStatus } from '../../../shared/agent';
import { isBlocked } from '../../../shared/planSteps';
import { formatDuration } from '../blocks/blockStatus';
import { useAiPanelStore } from './aiPanelStore';
import { ChildAgentCard } from './ChildAgentCard';
import { DecisionButton, DenyReasonToggle } from './DecisionButton';
import { DiffCard } from './DiffCard';
import { TraceIdChip } from './TraceIdChip';
import { ScreenshotThumbnail } from './ScreenshotThumbnail';
import { decideChildStep, decideStep } from './planRequests';
import { StepDenyReason } from './StepDenyReason';
import { StepEditor } from './StepEditor';
import { UiTargetCrop } from './UiTargetCrop';

const STATUS_TEXT: Record<StepStatus, string> = {
  proposed: 'waiting',
  approved: 'approved',
  running: 'running…',
  done: 'done',
  failed: 'failed',
  denied: 'denied',
  skipped: 'skipped',
};

const DECISION_TEXT = {
  allow: 'allowed',
  ask: 'asks you',
  deny: 'denied',
} as const;

const DECIDER_TEXT: Record<StepDecider['by'], string> = {
  you: 'you',
  'allow-all': 'Allow all',
  auto: 'auto mode',
  headless: 'the tandem agent run',
  grant: 'a session grant',
  policy: 'policy',
  hook: 'a hook',
  builtin: 'the built-in rules',
};

/**
 * Who decided the step ("allowed by Allow all", "denied by a hook · no-rm"); before anyone
 * has, what the gate says will happen ("blocked · …", "asks you · …").
 */
/** The step's status badge; a `listen` step that runs is recording, and says how to stop it. */
export function stepBadgeText(step: Pick<PlanStepView, 'status' | 'kind'>, blocked: boolean): string {
  if (blocked && step.status === 'proposed') return 'blocked';
  if (step.kind === 'listen' && step.status === 'running') return '● recording… Esc stops';
  return STATUS_TEXT[step.status];
}

export function stepRuleText(step: PlanStepView): string | undefined {
  const decider = step.decider;
  if (decider) {
    const how = decider.by === 'allow-all' ? '' : decider.by === 'you' ? ` (${decider.rule})` : ` · ${decider.rule}`;
    return `${decider.verdict} by ${DECIDER_TEXT[decider.by]}${how}`;
  }
  const approval = step.approval;
  if (!approval) return undefined;
  return `${approval.blocked ? 'blocked' : DECISION_TEXT[approval.decision]} · ${approval.rule}`;
}

/** Why a RED step is RED, on the card itself; undefined when its detail already says it (auto mode's refusal). */
function redReasons(step: PlanStepView): string | undefined {
  if (step.risk?.level !== 'red' || step.risk.reasons.length === 0) return undefined;
  const reasons = step.risk.reasons.join(' ');
  return step.detail?.includes(reasons) ? undefined : reasons;
}

/** The step's detail, unless it only repeats the rule line (a policy or hook denial names its rule there). */
function shownDetail(step: PlanStepView): string | undefined {
  if (!step.detail || (step.decider && step.detail === `${step.decider.verdict} by ${step.decider.rule}`)) return undefined;
  return step.detail;
}

const RISK_TEXT = {
  green: 'Read-only',
  yellow: 'Changes something, or unknown',
  red: 'Destructive or raises privileges: blocked',
} as const;

interface PlanStepProps {
  planId: string;
  step: PlanStepView;
  /** The one step waiting for a decision: its buttons and the one-letter keys are live. */
  actionable: boolean;
}

export function PlanStep({ planId, step, actionable }: PlanStepProps) {
  const editing = useAiPanelStore((state) => state.editingStepId === step.id) && actionable;
  const [askingReason, setAskingReason] = useState(false);

  const blocked = isBlocked(step);
  // A look at the screen (screenshot, OCR, window list) is not typed into a pane, nor is a UI action.
  const look = step.kind === 'screenshot' || step.kind === 'screen-text' || step.kind === 'windows' || step.kind === 'listen';
  const onScreen = look || step.kind === 'ui';
  // Only the step that is up next is judged (policy, hooks); later ones when their turn comes.
  const checking = actionable && !step.approval;
  const rule = stepRuleText(step);
  const whyRed = redReasons(step);
  const detail = shownDetail(step);
  const button = (action: StepAction, label: string, title: string, disabled = false) => (
    <DecisionButton action={action} title={title} disabled={disabled} leavesCard={action !== 'edit'} onDecide={() => decideStep(planId, step.id, action)}>
      {label}
    </DecisionButton>
  );

  const result = [
    step.exitCode !== undefined ? `exit ${step.exitCode}` : undefined,
    step.durationMs !== undefined ? formatDuration(step.durationMs) : undefined,
  ].filter(Boolean);

  return (
    <li
      className={`plan-step plan-step--${step.status}${actionable ? ' plan-step--next' : ''}`}
      data-testid="plan-step"
      data-step-id={step.id}
      data-kind={step.kind ?? 'command'}
      data-path={step.edit?.path}
      data-status={step.status}
      data-command={step.command}
      data-index={step.index}
      data-exit-code={step.exitCode !== undefined ? String(step.exitCode) : undefined}
      data-risk={step.risk?.level}
      data-decision={step.approval?.decision}
      data-decided-by={step.approval?.decidedBy}
      data-decider={step.decider?.by}
      data-ui-action={step.ui?.action}
    >
      <div className="plan-step__head">
        <span className="plan-step__index" aria-label={`Step ${step.index}`}>
          {step.index}
        </span>
        {editing ? (
          <StepEditor planId={planId} step={step} />
        ) : (
          <code className="plan-step__command">{step.command}</code>
        )}
        {step.risk && (
          <span
            className={`plan-step__risk plan-step__risk--${step.risk.level}`}
            data-testid="step-risk"
            title={step.risk.reasons.join('\n') || RISK_TEXT[step.risk.level]}
          >
            {step.risk.level}
          </span>
        )}
        <span className={`plan-step__badge plan-step__badge--${step.status}`} data-testid="step-status">
          {stepBadgeText(step, blocked)}
        </span>
      </div>
      {step.originalCommand !== undefined && step.originalCommand !== step.command && (
        <div className="plan-step__edited" title={step.originalCommand}>
          {step.changedByHook ? `changed by hook ${step.changedByHook}` : 'edited'}; proposed as <code>{step.originalCommand}</code>
        </div>
      )}
      {step.purpose && <div className="plan-step__purpose">{step.purpose}</div>}
      {step.edit && <DiffCard edit={step.edit} />}
      {step.screenshot && <ScreenshotThumbnail {...step.screenshot} />}
      {step.ui && step.ui.description !== step.command && (
        <div className="plan-step__ui" data-testid="ui-description">
          {step.ui.description}
        </div>
      )}
      {step.ui?.target && <UiTargetCrop target={step.ui.target} />}
      {!onScreen && (
        <div className="plan-step__where" data-testid="step-where" data-host={step.approval?.host}>
          {step.paneId !== undefined ? `pane ${step.paneId}` : 'no pane'}
          {step.approval?.host !== undefined && (
            <>
              {' · '}
              <strong className="plan-step__host" title="The pane's shell is on this host, reached with ssh: the step runs there">
                on host {step.approval.host}
              </strong>
            </>
          )}
          {step.cwd ? ` · ${step.cwd}` : ''}
        </div>
      )}
      {(rule || checking) && (
        <div className="plan-step__rule" data-testid="step-rule" title={step.approval?.shape ? `Command shape: ${step.approval.shape}` : undefined}>
          {rule ?? 'checking policy and hooks…'}
        </div>
      )}
      {whyRed && (
        <div className="plan-step__risk-why" data-testid="step-risk-why">
          RED: {whyRed}
        </div>
      )}
      {detail && <div className="plan-step__detail">{detail}</div>}
      {result.length > 0 && <div className="plan-step__result">{result.join(' · ')}</div>}
      {step.traceId && (
        <div className="plan-step__trace">
          <TraceIdChip traceId={step.traceId} spanId={step.spanId} />
        </div>
      )}
      {step.redacted && (
        <div className="plan-step__redacted" data-testid="redacted" title="The model received [REDACTED:kind] in their place">
          {step.redacted}
        </div>
      )}
      {step.child && <ChildAgentCard decide={(requestId, decision, note) => decideChildStep(planId, step.id, requestId, decision, note)} spawnStatus={step.status} child={step.child} />}
      {actionable && !editing && (
        <div className="plan-step__buttons">
          {button(
            'approve',
            'Allow once',
            blocked
              ? 'Blocked: this command is destructive or raises privileges. Edit it, deny it or skip it.'
              : step.kind === 'listen'
                ? 'Let the agent record for the time shown (Esc stops it), have it transcribed, and send the transcript to the model (Y)'
                : look
                ? 'Let the agent look, and send what it sees to the model (Y)'
                : step.kind === 'ui'
                  ? 'Let the agent do this on your screen (Y)'
                : 'Run this command in the terminal (Y)',
            blocked,
          )}
          {button(
            'allow-session',
            'Allow for session',
            step.approval?.grantable
              ? `Run it, and stop asking for commands of this shape until the window closes (T): ${step.approval.shape}`
              : 'Not offered for this step (blocked, denied, or still being checked)',
            !step.approval?.grantable,
          )}
          {button('deny', 'Deny', 'Do not run it (N)')}
          {(step.kind ?? 'command') === 'command' && button('edit', 'Edit', 'Change the command, then run it (E)')}
          {button('skip', 'Skip', 'Leave this step out and go on (S)')}
          <DenyReasonToggle action="deny-with-reason" told="agent" open={askingReason} onToggle={() => setAskingReason((value) => !value)} />
        </div>
      )}
      {step.edit && step.status === 'done' && (
        <div className="plan-step__undo">
          {!step.edit.undo?.restored && (
            <DecisionButton
              action="undo"
              title="Put back what the file held before this edit (only if it has not changed since)"
              onDecide={() => decideStep(planId, step.id, 'undo')}
            >
              Undo
            </DecisionButton>
          )}
          {step.edit.undo && (
            <span className="plan-step__undo-result" data-testid="undo-result" data-restored={String(step.edit.undo.restored)}>
              {step.edit.undo.message}
            </span>
          )}
        </div>
      )}
      {actionable && askingReason && !editing && (
        <StepDenyReason
          draftKey={`reason:${step.id}`}
          onDeny={(reason) => decideStep(planId, step.id, 'deny', reason)}
          onClose={() => setAskingReason(false)}
        />
      )}
    </li>
  );
}

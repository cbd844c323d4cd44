import type { StepDecider } from '../../../shared/agent';
import { isBlocked } from '../../../shared/planSteps';
import type { PlanEffect, PlanEvent } from './planEvents';
import { blockedDetail, isJudged, stepAudit, type PlanStep } from './planStep';

type StepActionEvent = Extract<PlanEvent, { kind: 'step-action' }>;

/**
 * The user's decision on the step waiting for one: Allow once, Allow for session (a grant),
 * Edit (the command is judged again before it runs), Deny (with a reason), Skip. Throws, with
 * a message for the user, when the step cannot take it; then nothing changed.
 */
export function applyStepDecision(
  step: PlanStep,
  event: StepActionEvent,
  plan: { approve(decider: StepDecider, detail: string | undefined): void; effects: PlanEffect[] },
): void {
  const { effects, approve } = plan;
  switch (event.action) {
    case 'approve':
    case 'allow-session': {
      if (isBlocked(step)) throw new Error(`Step ${step.index} is blocked: ${blockedDetail(step)}`);
      if (event.action === 'approve') {
        approve({ verdict: 'allowed', by: 'you', rule: 'Allow once' }, undefined);
        return;
      }
      const approval = isJudged(step) ? step.approval : undefined;
      if (!approval) throw new Error(`Step ${step.index} is still being checked; try again in a moment.`);
      if (!approval.grantable) throw new Error(`Step ${step.index} cannot be allowed for the session.`);
      effects.push({ kind: 'grant', shape: approval.shape, command: step.command });
      approve({ verdict: 'allowed', by: 'you', rule: `Allow for this session (${approval.shape})` }, undefined);
      return;
    }
    case 'edit': {
      if (step.kind === 'edit') throw new Error(`Step ${step.index} changes a file; deny it with a reason to have the agent change the edit.`);
      if (step.visionRequest) throw new Error(`Step ${step.index} looks at the screen; approve it or deny it with a reason.`);
      if (step.uiRequest) throw new Error(`Step ${step.index} acts on the screen; approve it, or deny it with a reason to have the agent change it.`);
      const edited = event.command?.trim();
      if (!edited) throw new Error('The edited command is empty.');
      if (edited !== step.command) {
        effects.push(stepAudit(step, 'edited', { command: edited, originalCommand: step.command }));
        step.originalCommand ??= step.command;
        step.command = edited;
        step.changedByHook = undefined;
        step.approval = undefined;
        step.risk = undefined;
        // The edited command is judged afresh (risk, policy, hooks) before it may run.
        effects.push({ kind: 'classify', stepId: step.id });
      }
      approve({ verdict: 'allowed', by: 'you', rule: 'Edit' }, step.originalCommand ? 'edited by you' : undefined);
      return;
    }
    case 'deny': {
      const why = event.reason?.trim();
      step.result = { content: `Not run: ${blockedNote(step)}the user denied this step${why ? `. Their reason: ${why}` : '.'}`, isError: true };
      settle(step, 'denied', why || undefined);
      step.decider = { verdict: 'denied', by: 'you', rule: 'Deny' };
      effects.push(stepAudit(step, 'denied', { decision: 'deny', decidedBy: { kind: 'person', rule: 'Deny' }, reason: why || undefined }));
      return;
    }
    case 'undo':
      throw new Error(`Step ${step.index} has not run; there is nothing to undo.`);
    case 'skip':
      step.result = { content: `Not run: ${blockedNote(step)}the user skipped this step.`, isError: false };
      settle(step, 'skipped');
      step.decider = { verdict: 'skipped', by: 'you', rule: 'Skip' };
      effects.push(stepAudit(step, 'denied', { decision: 'deny', decidedBy: { kind: 'person', rule: 'Skip' }, reason: 'skipped' }));
      return;
  }
}

/** Why a blocked step could not be approved, for the model, before what the user did with it. */
function blockedNote(step: PlanStep): string {
  if (!isBlocked(step)) return '';
  const why = step.risk?.reasons.join(' ').trim();
  return `it was blocked (RED${why ? `: ${why}` : ''}), and `;
}

function settle(step: PlanStep, status: PlanStep['status'], detail?: string): void {
  step.status = status;
  step.detail = detail;
}

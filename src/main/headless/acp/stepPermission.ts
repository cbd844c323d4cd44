import type { PermissionOption, RequestPermissionOutcome } from '@agentclientprotocol/sdk';
import type { PlanStepView, StepAction } from '../../../shared/agent';

const ALLOW_ONCE = 'allow_once';
const ALLOW_SESSION = 'allow_session';
const REJECT_ONCE = 'reject_once';

/**
 * The choices a `session/request_permission` offers for a step the gate asks about: Tandem's
 * decisions in ACP's words. "Allow always" is Tandem's allow-for-this-session grant of the
 * command's shape, offered only where the gate would grant it (never for RED, nor for an edit
 * outside the working directory).
 */
export function permissionOptions(step: PlanStepView): PermissionOption[] {
  const shape = step.approval?.shape;
  return [
    { optionId: ALLOW_ONCE, name: 'Allow once', kind: 'allow_once' },
    ...(step.approval?.grantable ? [{ optionId: ALLOW_SESSION, name: shape ? `Allow \`${shape}\` for this session` : 'Allow for this session', kind: 'allow_always' as const }] : []),
    { optionId: REJECT_ONCE, name: 'Deny', kind: 'reject_once' },
  ];
}

/** The step decision an answer stands for; anything but an allow is a denial the model is told about. */
export function stepDecision(outcome: RequestPermissionOutcome, offered: readonly PermissionOption[]): { action: StepAction; reason?: string } {
  if (outcome.outcome === 'cancelled') return { action: 'deny', reason: 'the permission request was cancelled in the editor' };
  if (!offered.some((option) => option.optionId === outcome.optionId)) return { action: 'deny', reason: `the editor answered with an option that was not offered (${outcome.optionId})` };
  if (outcome.optionId === ALLOW_ONCE) return { action: 'approve' };
  if (outcome.optionId === ALLOW_SESSION) return { action: 'allow-session' };
  return { action: 'deny' };
}

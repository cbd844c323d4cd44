import type { AuditRecord } from '../../safety/audit/auditEntry';
import { plural } from '../../../shared/countWords';
import { auditDecidedBy, stepAudit, type PlanStep } from './planStep';

/**
 * A step an auto run proposed after its step limit was reached: it stays on the card,
 * refused, with the limit as the reason, and the model is told the run ends there. It does
 * not count against the limit.
 */
export function refuseBeyondLimit(step: PlanStep, totalSteps: number): void {
  const limit = `this auto run's limit of ${plural(totalSteps, 'step')} was reached`;
  step.beyondLimit = true;
  step.status = 'denied';
  step.detail = `refused: ${limit}`;
  step.decider = { verdict: 'denied', by: 'auto', rule: `its limit of ${plural(totalSteps, 'step')}` };
  step.result = { content: `Not run: ${limit}, so the run ends here. Say what is left to do.`, isError: true };
}

/** The audit line of such a step, right after the line that records it was proposed. */
export function beyondLimitAudit(step: PlanStep): AuditRecord | undefined {
  if (!step.beyondLimit || !step.decider) return undefined;
  return stepAudit(step, 'denied', { decision: 'deny', decidedBy: auditDecidedBy(step.decider), reason: step.detail }).record;
}

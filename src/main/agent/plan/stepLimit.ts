import type { PlanEffect } from './planEvents';
import { auditDecidedBy, stepAudit, type PlanStep } from './planStep';

/**
 * A step an auto run proposed after its step limit was reached: it stays on the card,
 * refused, with the limit as the reason, and the model is told the run ends there. It does
 * not count against the limit.
 */
export function refuseBeyondLimit(step: PlanStep, totalSteps: number, effects: PlanEffect[]): void {
  const limit = `this auto run's limit of ${totalSteps} steps was reached`;
  step.beyondLimit = true;
  step.status = 'denied';
  step.detail = `refused: ${limit}`;
  step.decider = { verdict: 'denied', by: 'auto', rule: `its limit of ${totalSteps} steps` };
  step.result = { content: `Not run: ${limit}, so the run ends here. Say what is left to do.`, isError: true };
  effects.push(stepAudit(step, 'denied', { decision: 'deny', decidedBy: auditDecidedBy(step.decider), reason: limit }));
}

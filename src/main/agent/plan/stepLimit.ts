import type { AuditRecord } from '../../safety/audit/auditEntry';
import { plural } from '../../../shared/countWords';
import type { PlanEffect } from './planEvents';
import { auditDecidedBy, stepAudit, type PlanStep } from './planStep';

/**
 * A step an auto run proposed after its step limit was reached: it stays on the card,
 * refused, with the limit as the reason, and the model is told the run ends there. It does
 * not count against the limit.
 */
export function refuseBeyondLimit(step: PlanStep, totalSteps: number, by: 'auto' | 'headless'): void {
  const limit = `this ${by === 'auto' ? 'auto ' : ''}run's limit of ${plural(totalSteps, 'step')} was reached`;
  step.beyondLimit = true;
  step.status = 'denied';
  step.detail = `refused: ${limit}`;
  step.decider = { verdict: 'denied', by, rule: `its limit of ${plural(totalSteps, 'step')}` };
  step.result = { content: `Not run: ${limit}, so the run ends here. Say what is left to do.`, isError: true };
}

/** The audit line of such a step, right after the line that records it was proposed. */
export function beyondLimitAudit(step: PlanStep): AuditRecord | undefined {
  if (!step.beyondLimit || !step.decider) return undefined;
  return stepAudit(step, 'denied', { decision: 'deny', decidedBy: auditDecidedBy(step.decider), reason: step.detail }).record;
}

/**
 * A step the gate would ask about in a run with nobody to ask (`tandem agent --approve=policy`):
 * refused, and the model is told what would let it run.
 */
export function refuseAsking(step: PlanStep, runName: string, effects: PlanEffect[], halt: (reason: string) => void): void {
  const rule = step.approval?.rule ?? 'the approval gate';
  step.status = 'denied';
  step.detail = `refused by ${runName}: it would ask (${rule}), and nobody is there to approve it`;
  step.decider = { verdict: 'denied', by: 'headless', rule: `${runName}: steps that would ask are refused` };
  step.result = {
    content: `Not run: ${runName} runs only what needs no approval (read-only commands, and what the user's policy.toml allows); this step would ask (${rule}). Find another way, or say what the user should run or allow.`,
    isError: true,
  };
  effects.push(stepAudit(step, 'denied', { decision: 'deny', decidedBy: auditDecidedBy(step.decider), reason: step.detail }));
  halt(`Step ${step.index} was refused: ${runName} does not run steps that would ask.`);
}

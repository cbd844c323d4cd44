import type { PlanStepView } from './planViews';

/**
 * What a plan step's state means, for the engine (which decides) and the panel (which shows
 * it) alike.
 */

/** RED: neither Approve nor Allow all runs it. The gate's verdict once it has one, the risk until then. */
export function isBlocked(step: PlanStepView): boolean {
  return step.approval ? step.approval.blocked : step.risk?.level === 'red';
}

/** Not run yet: waiting for a decision, or approved and waiting for its turn. */
export function isOpen(step: PlanStepView): boolean {
  return step.status === 'proposed' || step.status === 'approved';
}

/** Still to decide or to run, or running. */
export function isPending(step: PlanStepView): boolean {
  return isOpen(step) || step.status === 'running';
}

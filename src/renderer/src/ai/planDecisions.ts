import type { ConversationView, PlanStepView, PlanView, StepAction } from '../../../shared/agent';

/** The plan the user can act on: the newest one still active or halted. */
export function currentPlan(conversation: ConversationView | undefined): PlanView | undefined {
  const items = conversation?.items ?? [];
  for (let index = items.length - 1; index >= 0; index--) {
    const item = items[index];
    if (item?.role === 'plan' && (item.plan.state === 'active' || item.plan.state === 'halted')) return item.plan;
  }
  return undefined;
}

/**
 * The step whose buttons and keys are live: the one the engine says waits for a decision.
 * None while a step runs, and none while Allow all will decide the next one.
 */
export function decisionStep(plan: PlanView | undefined): PlanStepView | undefined {
  if (plan?.state !== 'active' || plan.decisionStepId === undefined) return undefined;
  return plan.steps.find((step) => step.id === plan.decisionStepId && step.status === 'proposed');
}

/** Allow all (and Step through) are offered while the plan is active and some step is still undecided, whichever step's turn it is. */
export function canAllowAll(plan: PlanView | undefined): boolean {
  return plan?.state === 'active' && plan.steps.some((step) => step.status === 'proposed');
}

/**
 * One-letter keys for the next decision, while the panel (not a text field in it) has focus:
 * y allow once, t allow for this session, n deny, e edit, s skip, a allow all.
 */
export const PLAN_KEYS: Record<string, StepAction | 'allow-all'> = {
  y: 'approve',
  t: 'allow-session',
  n: 'deny',
  e: 'edit',
  s: 'skip',
  a: 'allow-all',
};

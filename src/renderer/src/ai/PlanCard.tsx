import { memo } from 'react';
import type { ConversationItem, PlanAction, PlanView } from '../../../shared/agent';
import { isPending } from '../../../shared/planSteps';
import { canAllowAll, decisionStep } from './planDecisions';
import { focusPlanAfter, keepFocusOnClick } from './planFocus';
import { PlanNote } from './PlanNote';
import { decidePlan } from './planRequests';
import { PlanStep } from './PlanStep';

const STATE_TEXT: Record<PlanView['state'], string> = {
  active: 'active',
  halted: 'halted',
  finished: 'finished',
  cancelled: 'cancelled',
};

const MODE_TEXT: Record<PlanView['mode'], string> = {
  ask: 'asks before each step',
  'allow-all': 'runs all steps',
  'step-through': 'step by step',
};

type PlanItem = Extract<ConversationItem, { role: 'plan' }>;

/** Steps the agent proposes, each waiting for a decision; the plan's own controls below them. */
export const PlanCard = memo(function PlanCard({ item }: { item: PlanItem }) {
  const plan = item.plan;
  const active = plan.state === 'active';
  const halted = plan.state === 'halted';
  const next = decisionStep(plan);
  /** Steps still to decide or to run: without any, the plan-level controls have nothing to act on. */
  const pending = plan.steps.some(isPending);
  const undecided = canAllowAll(plan);

  const planButton = (action: PlanAction, label: string, title: string, pressed?: boolean) => (
    <button
      type="button"
      data-action={action}
      title={title}
      aria-pressed={pressed}
      onMouseDown={keepFocusOnClick}
      onClick={(event) => {
        focusPlanAfter(event);
        decidePlan(plan.id, action);
      }}
    >
      {label}
    </button>
  );

  return (
    <section
      className={`plan plan--${plan.state}`}
      data-testid="plan"
      data-plan-id={plan.id}
      data-item-id={item.id}
      data-state={plan.state}
      data-mode={plan.mode}
      data-auto={plan.auto ? 'true' : undefined}
      aria-label={`Plan, ${STATE_TEXT[plan.state]}`}
      tabIndex={-1}
    >
      <header className="plan__header">
        <span className="plan__title">Plan</span>
        <span className={`plan__state plan__state--${plan.state}`}>{STATE_TEXT[plan.state]}</span>
        {(active || halted) && (
          <span className="plan__mode">{plan.auto && plan.mode === 'ask' ? 'auto: GREEN runs, the rest asks, RED is refused' : MODE_TEXT[plan.mode]}</span>
        )}
      </header>
      <ol className="plan__steps">
        {plan.steps.map((step) => (
          <PlanStep
            key={step.id}
            planId={plan.id}
            step={step}
            actionable={step.id === next?.id}
          />
        ))}
      </ol>
      {halted && (
        <div className="plan__halt" data-testid="plan-halt">
          <span className="plan__halt-reason">{plan.haltReason || 'A step failed; the plan waits for you.'}</span>
          <div className="plan__buttons">
            {planButton('continue', 'Continue', 'Carry on with the remaining steps')}
            {planButton('stop', 'Stop', 'End the plan here')}
          </div>
        </div>
      )}
      {active && pending && (
        <div className="plan__buttons plan__actions">
          {undecided && planButton('allow-all', 'Allow all', 'Run every remaining step without asking (A)', plan.mode === 'allow-all')}
          {undecided && planButton('step-through', 'Step through', 'Ask before each step', plan.mode === 'step-through')}
          {planButton('deny-plan', 'Deny plan', 'Run none of the remaining steps')}
        </div>
      )}
      {((active && pending) || halted) && <PlanNote />}
      {next && (
        <p className="plan__keys">
          With the panel focused: <kbd>Y</kbd> allow once · <kbd>T</kbd> allow for session · <kbd>N</kbd> deny · <kbd>E</kbd> edit · <kbd>S</kbd> skip ·{' '}
          <kbd>A</kbd> allow all
        </p>
      )}
    </section>
  );
});

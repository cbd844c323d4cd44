import type { ReactElement, ReactNode } from 'react';
import type { ConversationItem } from '../../../shared/agent';
import { describeAutoEnd, type AutoSummary, type AutoSummaryStep } from '../../../shared/companion';
import { plural } from '../../../shared/countWords';
import { formatElapsed } from '../companion/autoRunState';

type SummaryItem = Extract<ConversationItem, { role: 'summary' }>;

const NOT_RUN = new Set(['denied', 'skipped', 'proposed', 'approved']);

/** Tandem's account of an `!auto` run: what ran, the files it changed (each leads to its diff), what is left. */
export function AutoSummaryMessage({ item }: { item: SummaryItem }) {
  const { summary } = item;
  const ran = summary.steps.filter((step) => step.kind === 'command' && (step.status === 'done' || step.status === 'failed'));
  const changed = summary.steps.filter((step) => step.kind === 'edit' && step.status === 'done');
  const acted = summary.steps.filter((step) => step.kind === 'ui' && (step.status === 'done' || step.status === 'failed'));
  const notRun = summary.steps.filter((step) => NOT_RUN.has(step.status));
  return (
    <div className="ai-message ai-message--summary" data-testid="ai-message" data-role="summary" data-item-id={item.id} data-end={summary.end.kind}>
      <p className="auto-summary__head">
        <strong>Auto run {summary.end.kind === 'done' ? 'finished' : 'ended'}</strong>: {summary.task}
        <span className="auto-summary__facts">
          {' '}
          · {formatElapsed(summary.durationMs)} · {plural(summary.steps.length, 'step')} · {summary.tokens.toLocaleString('en-US')} tokens
        </span>
      </p>
      <SummarySection title="Ran" empty="No command ran.">
        {ran.map((step) => (
          <li key={step.stepId} data-testid="summary-command" data-status={step.status} data-exit-code={step.exitCode}>
            <code>{step.command}</code> → {step.exitCode !== undefined ? `exit ${step.exitCode}` : step.status}
            {step.detail && <span className="auto-summary__detail"> ({step.detail})</span>}
          </li>
        ))}
      </SummarySection>
      <SummarySection title="Files changed" empty="No file was changed.">
        {changed.map((step) => (
          <li key={step.stepId} data-testid="summary-file" data-path={step.path}>
            <button type="button" className="auto-summary__link" title="Show its diff" onClick={() => showStep(step)}>
              {step.path}
            </button>
          </li>
        ))}
      </SummarySection>
      {acted.length > 0 && (
        <SummarySection title="On screen" empty="">
          {acted.map((step) => (
            <li key={step.stepId} data-testid="summary-ui" data-status={step.status}>
              {step.command}
              {step.status === 'failed' && <span className="auto-summary__detail"> (not done{step.detail ? `: ${step.detail}` : ''})</span>}
            </li>
          ))}
        </SummarySection>
      )}
      <p className="auto-summary__left" data-testid="summary-left">
        <strong>Left:</strong> {leftText(summary, notRun)}
      </p>
    </div>
  );
}

function SummarySection({ title, empty, children }: { title: string; empty: string; children: ReactElement[] }) {
  return (
    <div className="auto-summary__section">
      <strong>{title}:</strong>
      {children.length > 0 ? <ul className="auto-summary__list">{children}</ul> : <span className="auto-summary__none"> {empty}</span>}
    </div>
  );
}

function leftText(summary: AutoSummary, notRun: AutoSummaryStep[]): ReactNode {
  const skipped = notRun.length > 0 && (
    <>
      {' '}
      Not run:{' '}
      {notRun.map((step, index) => (
        <span key={step.stepId}>
          {index > 0 && ', '}
          <code>{step.command}</code> ({step.detail ?? step.status})
        </span>
      ))}
      .
    </>
  );
  if (summary.end.kind === 'done') {
    return (
      <>
        the agent said the task is done; its last answer above says what is left, if anything.{skipped}
      </>
    );
  }
  return (
    <>
      the run ended before the agent said the task was done: {describeAutoEnd(summary.end)}.{skipped} Write to the AI to go on.
    </>
  );
}

/** The step's card, scrolled into view (an edit's card holds its diff). */
function showStep(step: AutoSummaryStep): void {
  const card = document.querySelector<HTMLElement>(`[data-testid="plan-step"][data-step-id="${CSS.escape(step.stepId)}"]`);
  card?.scrollIntoView({ block: 'center' });
  card?.focus({ preventScroll: true });
}

import type { ChildAgentView, StepStatus } from '../../../shared/agent';
import { AssistantText } from './AssistantText';
import { ChildApprovalCard, type ChildDecide } from './ChildApprovalCard';
import { CHILD_STEP_STATUS_TEXT, childStateText, childUsageText, childUsageTitle, childWho, filesChangedText } from './childAgentText';

interface ChildAgentCardProps {
  /** Where the answers to the child's asking steps go (its spawn step's plan, or a watcher run). */
  decide: ChildDecide;
  /** The status of the spawn_agent step that starts the child (a watcher run has none: `approved`). */
  spawnStatus: StepStatus;
  child: ChildAgentView;
}

/**
 * The child agent a spawn_agent step starts, nested under that step: who it is, what it was
 * asked and may do, its own steps as compact rows, what it changed and used, its answer or why
 * it ended — and its steps that ask, for the user to decide here.
 */
export function ChildAgentCard({ decide, spawnStatus, child }: ChildAgentCardProps) {
  const who = childWho(child);
  const usage = childUsageText(child.usage);
  return (
    <section
      className={`child-agent child-agent--${child.state}`}
      aria-label={who}
      data-testid="child-agent"
      data-state={child.state}
      data-depth={child.depth}
      data-pid={child.pid}
    >
      <div className="child-agent__head">
        <span className="child-agent__who" data-testid="child-who">
          {who}
        </span>
        <span className={`plan-step__badge plan-step__badge--${child.state}`} data-testid="child-state">
          {childStateText(child, spawnStatus)}
        </span>
      </div>
      <div className="child-agent__instruction" data-testid="child-instruction">
        {child.instruction}
      </div>
      {child.may.length > 0 && (
        <ul className="child-agent__may" aria-label="What the child agent may do" data-testid="child-may">
          {child.may.map((line, index) => (
            <li key={index}>{line}</li>
          ))}
        </ul>
      )}
      {child.steps.length > 0 && (
        <ol className="child-agent__steps" aria-label="The child agent's steps">
          {child.steps.map((step) => (
            <li
              key={step.index}
              className={`child-agent__step child-agent__step--${step.status}`}
              data-testid="child-step"
              data-index={step.index}
              data-status={step.status}
              data-command={step.command}
              data-exit-code={step.exitCode !== undefined ? String(step.exitCode) : undefined}
            >
              <span className="plan-step__index">{step.index}</span>
              <code className="plan-step__command">{step.command}</code>
              {step.exitCode !== undefined && <span className="child-agent__exit">exit {step.exitCode}</span>}
              <span className={`plan-step__badge plan-step__badge--${step.status}`}>{CHILD_STEP_STATUS_TEXT[step.status]}</span>
            </li>
          ))}
        </ol>
      )}
      {child.asking.map((request) => (
        <ChildApprovalCard key={request.id} decide={decide} who={request.agent ? childWho(request.agent) : who} request={request} />
      ))}
      {child.filesChanged.length > 0 && (
        <div className="child-agent__files" data-testid="child-files">
          {filesChangedText(child.filesChanged)}:{' '}
          {child.filesChanged.map((path) => (
            <code key={path} className="child-agent__file">
              {path}
            </code>
          ))}
        </div>
      )}
      {usage && child.usage && (
        <div className="child-agent__usage" data-testid="child-usage" title={childUsageTitle(child.usage)}>
          {usage}
        </div>
      )}
      {child.answer !== undefined && (
        <div className="child-agent__answer" data-testid="child-answer">
          <span className="child-agent__label">Answer</span>
          <AssistantText text={child.answer} />
        </div>
      )}
      {child.reason && (
        <div className="child-agent__reason" data-testid="child-reason">
          {child.reason}
        </div>
      )}
    </section>
  );
}

import type { ChildAgentView, ChildApprovalView, ChildStepView, StepStatus } from '../../../shared/agent';
import { formatCount, plural } from '../../../shared/countWords';
import { formatCost, formatTokens } from './usageFormat';

/** "Child agent · depth 1 · pid 1234": who the nested card is about (and who asks); a grandchild's request names the grandchild. */
export function childWho(child: Pick<ChildAgentView, 'depth' | 'pid'>): string {
  return [child.depth > 1 ? 'Descendant agent' : 'Child agent', `depth ${child.depth}`, child.pid !== undefined ? `pid ${child.pid}` : undefined].filter(Boolean).join(' · ');
}

const STATE_TEXT: Record<ChildAgentView['state'], string> = {
  starting: 'starting…',
  running: 'running…',
  done: 'done',
  failed: 'failed',
  stopped: 'stopped',
};

/**
 * The child's state as the card says it. Until its spawn step is allowed the child does not
 * exist yet ("starting" would say it is on its way); a spawn step denied or skipped never starts it.
 */
export function childStateText(child: ChildAgentView, spawnStatus: StepStatus): string {
  if (child.state === 'starting') {
    if (spawnStatus === 'proposed') return 'starts when you allow this step';
    if (spawnStatus === 'denied' || spawnStatus === 'skipped') return 'not started';
  }
  return STATE_TEXT[child.state];
}

/** A child step's status on its compact row: "asks you", "running…", "done", "exit 2" … */
export const CHILD_STEP_STATUS_TEXT: Record<ChildStepView['status'], string> = {
  asking: 'asks you',
  running: 'running…',
  done: 'done',
  failed: 'failed',
  denied: 'denied',
  skipped: 'skipped',
};

/**
 * "↑1.2k ↓340 tokens · $0.012"; "cost unknown" when the child's model has no price (a local
 * model, say) rather than a guess or a silent gap. Undefined before the child used any tokens.
 */
export function childUsageText(usage: ChildAgentView['usage']): string | undefined {
  if (!usage) return undefined;
  const tokens = `↑${formatTokens(usage.inputTokens)} ↓${formatTokens(usage.outputTokens)} tokens`;
  if (usage.inputTokens + usage.outputTokens === 0 && usage.costUsd === undefined) return undefined;
  return `${tokens} · ${formatCost(usage.costUsd) ?? 'cost unknown'}`;
}

/** The exact counts behind the compact usage line, for its tooltip. */
export function childUsageTitle(usage: NonNullable<ChildAgentView['usage']>): string {
  return `${formatCount(usage.inputTokens)} input tokens, ${formatCount(usage.outputTokens)} output tokens (the child agent's own requests)`;
}

/** "2 files changed" */
export function filesChangedText(files: string[]): string {
  return `${plural(files.length, 'file')} changed`;
}

/** Who asks and for what, the first line of a nested approval card. */
export function childAskText(request: Pick<ChildApprovalView, 'kind'>): string {
  switch (request.kind) {
    case 'edit':
      return 'The child agent asks to change a file:';
    case 'screenshot':
    case 'screen-text':
    case 'windows':
      return 'The child agent asks to look at the screen:';
    case 'listen':
      return 'The child agent asks to record and transcribe audio:';
    case 'ui':
      return 'The child agent asks to act on your screen:';
    default:
      return 'The child agent asks to run:';
  }
}

import type { AgentStatus } from '../../../shared/agent';

const STATUS_TEXT: Record<AgentStatus, string> = {
  idle: 'Ready',
  thinking: 'Thinking…',
  streaming: 'Answering…',
  'awaiting-approval': 'Waiting for you',
  'running-step': 'Running a step',
  retrying: 'Retrying…',
};

/**
 * The header's status: a few words that fit its narrow box. The long story (a retry's
 * countdown and reason, why a plan halted, what a step waits for) is told in the
 * conversation; the engine's detail is the tooltip.
 */
export function agentStatusText(status: AgentStatus): string {
  return STATUS_TEXT[status];
}

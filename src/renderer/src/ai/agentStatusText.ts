import type { AgentStatus } from '../../../shared/agent';

const STATUS_TEXT: Record<AgentStatus, string> = {
  idle: 'Ready',
  thinking: 'Thinking…',
  streaming: 'Answering…',
  'awaiting-approval': 'Waiting for your approval',
  'running-step': 'Running a step',
  retrying: 'Retrying',
};

/** The header's status line: what the agent does now, with the engine's detail when it has one. */
export function agentStatusText(status: AgentStatus, detail?: string): string {
  const text = STATUS_TEXT[status];
  return detail ? `${text} — ${detail}` : text;
}

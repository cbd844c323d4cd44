import type { AgentStatus } from '../../shared/agent';
import type { Settings } from '../../shared/settings';
import type { ApprovalGate } from '../safety/approval/approvalGate';
import type { AgentLoop } from './agentLoop';
import type { AutoMode } from './auto/autoMode';
import type { ConversationSurroundings } from './conversation/conversation';
import type { ModelChoice } from './modelConnection';
import type { ModelRequests } from './modelRequests';
import type { OfflineQueue } from './offline/offlineQueue';
import type { TokenBudget } from './tokenBudget';
import type { ToolDispatcher } from './tools/toolDispatcher';
import type { UserCommand } from './userCommand';

/** The parts of an agent session its header, status line and safety bar are read from. */
export interface SessionParts {
  models: ModelChoice;
  requests: ModelRequests;
  tools: ToolDispatcher;
  budget: TokenBudget;
  auto: AutoMode;
  userCommand: UserCommand;
  loop: AgentLoop;
  gate: ApprovalGate;
  offline: OfflineQueue | undefined;
  ai: Settings['ai'];
}

/** What the conversation view shows beside its items: status, model, budgets, grants, auto run, queue. */
export function sessionSurroundings(parts: SessionParts): ConversationSurroundings {
  const { models, requests, tools, budget, gate } = parts;
  const connection = models.connection();
  return {
    status: sessionStatus(parts),
    statusDetail: requests.current?.phase === 'retrying' ? requests.current.detail : tools.plan?.detail,
    backend: connection.backendKind,
    model: connection.model,
    setupHint: connection.setupHint,
    budget: { used: budget.used, limit: parts.ai.session_token_budget },
    grants: gate.grants.list().map(({ shape, example }) => ({ shape, example })),
    policyProblems: gate.policyProblems(),
    auto: parts.auto.view(),
    offline: parts.offline?.view(),
    dailyBudget: requests.daily.view(),
  };
}

function sessionStatus({ requests, tools, userCommand, loop }: SessionParts): AgentStatus {
  const turn = requests.current;
  if (turn) return turn.phase;
  const plan = tools.plan;
  if (userCommand.running || plan?.runningStep) return 'running-step';
  if (plan?.waitingForUser) return 'awaiting-approval';
  if (loop.running) return 'thinking';
  return 'idle';
}

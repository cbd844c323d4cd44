import type { AgentEvents } from '../../shared/agent';
import type { Settings } from '../../shared/settings';
import type { Desktop } from '../desktop/desktop';
import type { EngineLog } from '../log/engineLog';
import type { Tracer } from '../telemetry/tracer';
import type { ApprovalGate } from '../safety/approval/approvalGate';
import type { AuditLog } from '../safety/audit/auditLog';
import type { AgentPane } from './agentPane';
import type { PlanRules } from './plan/plan';
import type { ApiKeyStore } from './modelConnection';
import type { ChildAgentsHost } from './children/childAgents';
import type { EngineHistory } from '../history/recording/engineHistory';

/** What the agent needs from the engine. */
export interface AgentHost {
  settings(): Settings;
  env: NodeJS.ProcessEnv;
  keys: ApiKeyStore;
  pane(paneId: number): AgentPane | undefined;
  /** The pane the user worked in last, when a request names none. */
  defaultPaneId(): number | undefined;
  emit<E extends keyof AgentEvents>(event: E, payload: AgentEvents[E]): void;
  /** First retry delay when the server names none (doubling each time); tests shorten it. */
  retryBaseMs?: number;
  /** The approval gate every command of the agent passes: risk, policy, hooks, session grants. */
  gate: ApprovalGate;
  /** The audit trail of every proposed, decided and executed action. */
  audit: Pick<AuditLog, 'append'>;
  /** Where model errors and hook failures are recorded. */
  log?: Pick<EngineLog, 'error' | 'warning'>;
  /** Screenshots and the window list (desktop/); absent: the agent's looks say they are not available. */
  desktop?: Desktop;
  /** The rules of every plan in a `tandem agent` run (who refuses what nobody approves, its step limit). */
  planRules?(): PlanRules | undefined;
  /** Where the agent's spans go; absent: none are made. */
  tracer?: Tracer;
  /** Why no model request may go now (a headless run's spent budget); undefined: they may. */
  requestRefusal?(): string | undefined;
  /** How this agent starts child agents (spawn_agent); absent: it cannot. */
  childAgents?: Pick<ChildAgentsHost, 'selfCommand' | 'depth' | 'budgetLeftUsd' | 'asks' | 'childCost'>;
  /** A `tandem agent` run: its spans' source is `headless` (or `child`), not the panel; nothing is queued offline. */
  headless?: boolean;
  /** Where instructions queued while no backend answers are kept across restarts (and restored from). */
  queueFile?: string;
  /** The block history: the agent claims the blocks its steps type, and `search_history` reads it; absent: neither. */
  history?: Pick<EngineHistory, 'claim' | 'search'>;
  /** An `!auto` run started (a pane id) or ended (undefined): Watch mode's hints keep quiet meanwhile. */
  autoChanged?(paneId: number | undefined): void;
}

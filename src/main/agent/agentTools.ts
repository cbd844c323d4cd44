import type { AgentHost } from './agentHost';
import type { AgentTracing } from '../telemetry/agentTracing';
import { AGENT_DEPTH_VARIABLE, agentDepth } from './children/agentDepth';
import type { Conversation } from './conversation/conversation';
import type { ModelChoice } from './modelConnection';
import type { PlanRules } from './plan/plan';
import { NO_PAGER_ENV } from './plan/stepEnvironment';
import type { Summarizer } from './summarizer/summarizer';
import { endpointHost } from '../voice/audioServerCall';
import { VoiceService } from '../voice/voiceService';
import { ListenSteps } from './hearing/listenSteps';
import { ToolDispatcher } from './tools/toolDispatcher';
import { AGENT_TOOLS } from './tools/toolRegistry';

/** What the agent session lends its tools: where they work, and the rules of the plan at hand. */
export interface AgentToolsContext {
  conversation: Conversation;
  models: ModelChoice;
  summarizer: Summarizer;
  tracing: AgentTracing | undefined;
  paneId(): number | undefined;
  cwd(): string;
  stepTimeoutMs(): number;
  planRules(): PlanRules | undefined;
}

/**
 * The agent's tools over the engine: panes, gate, audit, desktop. Every step's command line
 * runs with the no-pager variables (unless `[ai] steps_use_pager`) and, where this agent can
 * start children, the depth a `tandem agent` started by it would have.
 */
export function agentTools(host: AgentHost, context: AgentToolsContext): ToolDispatcher {
  const ai = () => host.settings().ai;
  const depth: Record<string, string> = host.childAgents ? { [AGENT_DEPTH_VARIABLE]: String(host.childAgents.depth + 1) } : {};
  return new ToolDispatcher(AGENT_TOOLS, {
    pane: (paneId) => host.pane(paneId),
    paneId: () => context.paneId(),
    cwd: () => context.cwd(),
    homeDir: host.env.HOME,
    conversation: context.conversation,
    gate: host.gate,
    audit: host.audit,
    log: host.log,
    stepTimeoutMs: () => context.stepTimeoutMs(),
    stepEnv: () => ({ ...(ai().steps_use_pager ? {} : NO_PAGER_ENV), ...depth }),
    tracing: context.tracing,
    planRules: () => context.planRules(),
    summarizer: context.summarizer,
    desktop: host.desktop,
    hearing: listenSteps(host),
    history: host.history && {
      claim: (blockId, { auto, decider, conversation }) =>
        host.history!.claim(blockId, {
          // A child agent's every step is the child's, its `!auto` ones included.
          author: agentDepth(host.env) > 0 ? 'child-agent' : auto ? 'auto-run' : 'agent-step',
          decision: decider && `${decider.verdict} by ${decider.by}`,
          rule: decider?.rule,
          conversation,
        }),
      search: (query) => host.history!.search(query),
    },
    childAgents: host.childAgents && {
      ...host.childAgents,
      maxDepth: () => ai().max_agent_depth,
      grantsToPass: () => (ai().pass_grants_to_children ? host.gate.grants.list().map(({ shape, example }) => ({ shape, example })) : []),
      model: () => {
        const connection = context.models.connection();
        return { backend: connection.backendKind, model: connection.model };
      },
    },
  });
}

/** `listen` transcribes through the voice service (its own instance: a recording the agent asked for never fires `voice` watchers). */
function listenSteps(host: AgentHost): ListenSteps {
  const voice = new VoiceService({
    settings: () => host.settings().voice,
    env: host.env,
    log: { info: () => undefined, error: (area, message, detail) => host.log?.error(area, message, detail) },
  });
  const transcriber = { endpointHost: () => (host.settings().voice.endpoint ? endpointHost(host.settings().voice.endpoint) : undefined), transcribe: (wav: Uint8Array) => voice.transcribe(wav) };
  return new ListenSteps({ gate: host.gate, transcriber, env: host.env });
}

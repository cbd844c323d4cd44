/**
 * How deep an agent is in a tree of agents: every plan step's command line gets this variable
 * (this agent's depth + 1), so a `tandem agent` started by a step — by spawn_agent or typed by
 * the model — knows it is a child. Kept apart from the trace variables, which are absent when
 * telemetry is off: the depth limit holds either way.
 */
export const AGENT_DEPTH_VARIABLE = 'TANDEM_AGENT_DEPTH';

export function agentDepth(env: NodeJS.ProcessEnv): number {
  const depth = Number.parseInt(env[AGENT_DEPTH_VARIABLE] ?? '', 10);
  return Number.isInteger(depth) && depth > 0 ? depth : 0;
}

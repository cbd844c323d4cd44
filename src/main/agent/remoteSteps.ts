import type { GateDecision } from '../safety/approval/gateDecision';
import type { AgentPane } from './agentPane';

/**
 * Steps at a remote prompt (the pane's shell is on another host, reached with `ssh`). The gate
 * classifies a command with this machine's files (git config, paths, policy), which say nothing
 * about the other host; until it judges remote steps with remote facts, nothing runs there
 * without the person: a step the gate would allow asks instead, and neither "Allow for this
 * session" nor a policy allow covers it. Denials stand.
 */
export function askOnRemoteHost(decision: GateDecision, pane: Pick<AgentPane, 'remote'> | undefined): GateDecision {
  const remote = pane?.remote;
  if (!remote || decision.decision !== 'allow') return decision;
  return {
    ...decision,
    decision: 'ask',
    personal: true,
    decidedBy: 'builtin',
    rule: `builtin: runs on ${remote.host} over ssh; this machine's files cannot vouch for it there, so it asks`,
  };
}

/**
 * File edits are made on this machine: in a pane on another host the same path names another
 * file, so an edit there is refused (the model is told why) rather than written here.
 */
export function refuseEditOnRemoteHost(pane: Pick<AgentPane, 'remote'> | undefined, proposed: { command: string }): GateDecision | undefined {
  const remote = pane?.remote;
  if (!remote) return undefined;
  return {
    decision: 'deny',
    blocked: false,
    level: 'yellow',
    reasons: [`the pane is on ${remote.host} over ssh`],
    rule: `builtin: file edits are made on this machine only; the pane is on ${remote.host} (edit there with a command, which asks)`,
    decidedBy: 'builtin',
    command: proposed.command,
    shape: proposed.command,
  };
}

import { createApprovalGate, type GateSetupOptions } from '../safety/approval/gateSetup';
import { tandemPaths } from '../settings/paths';

export interface PolicyCheckResult {
  decision: 'allow' | 'ask' | 'deny';
  level: 'green' | 'yellow' | 'red';
  rule: string;
  reasons: string[];
}

/**
 * `tandem policy check`: what the approval gate decides for a command run in `cwd`, for people
 * writing policies — the whole cascade (Tandem's own files, policy deny lists, pre-exec
 * hooks, policy), without session grants. A RED command that no allow pattern names is
 * "deny": the gate blocks it until it is edited.
 */
export async function runPolicyCheck(command: string, env: NodeJS.ProcessEnv, cwd: string, options: GateSetupOptions = {}): Promise<PolicyCheckResult> {
  const gate = createApprovalGate(tandemPaths(env), env, options);
  const decided = await gate.decide({ command, cwd });
  return {
    decision: decided.blocked ? 'deny' : decided.decision,
    level: decided.level,
    rule: decided.modifiedBy ? `${decided.rule} (the command as changed by hook ${decided.modifiedBy}: ${decided.command})` : decided.rule,
    reasons: decided.reasons,
  };
}

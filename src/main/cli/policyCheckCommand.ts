import { homedir } from 'node:os';
import { protectedPaths } from '../agent/commandRiskClassifier';
import { classifyCommand } from '../safety/commandRisk';
import { tandemPaths } from '../settings/paths';

export interface PolicyCheckResult {
  decision: 'allow' | 'ask' | 'deny';
  level: 'green' | 'yellow' | 'red';
  rule: string;
  reasons: string[];
}

/**
 * `tandem policy check`: what the approval gate decides for a command, for people writing
 * policies. Today the gate is the risk level alone — RED is blocked, everything else asks
 * the user; policy.toml, hooks and grants will come in front of it.
 */
export async function runPolicyCheck(command: string, env: NodeJS.ProcessEnv, cwd: string): Promise<PolicyCheckResult> {
  const home = env.HOME || homedir();
  const { level, reasons } = await classifyCommand(command, { cwd, home, protectedPaths: protectedPaths(tandemPaths(env), home) });
  return {
    decision: level === 'red' ? 'deny' : 'ask',
    level,
    rule: level === 'red' ? 'builtin: RED commands are blocked' : 'builtin: every step asks (no policy.toml support yet)',
    reasons,
  };
}

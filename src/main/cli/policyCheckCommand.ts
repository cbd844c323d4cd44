import { realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { realPathOf } from '../agent/fileEdits/editableFile';
import { resolveToolPath } from '../agent/tools/filePaths';
import type { GateDecision } from '../safety/approval/approvalGate';
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
  return checkResult(decided, decided.modifiedBy ? `${decided.rule} (the command as changed by hook ${decided.modifiedBy}: ${decided.command})` : decided.rule);
}

/**
 * `tandem policy check --edit PATH`: what the gate decides for an edit_file (or write_file: the
 * same cascade) of PATH by the agent in a pane whose working directory is `cwd` — Tandem's own
 * files, `[approval.filesystem]` deny and write globs, key and startup files, pre-exec hooks,
 * outside the pane's directory — without session grants. The path is resolved as the file
 * tools resolve it: from `cwd`, `~/…`, through symlinks.
 */
export async function runPolicyEditCheck(path: string, env: NodeJS.ProcessEnv, cwd: string, options: GateSetupOptions = {}): Promise<PolicyCheckResult | { error: string }> {
  const resolved = resolveToolPath(path, { cwd, homeDir: env.HOME || homedir() });
  if (!resolved.ok) return { error: resolved.message };
  const real = await realPathOf(resolved.path);
  const gate = createApprovalGate(tandemPaths(env), env, options);
  const decided = await gate.decideEdit({
    tool: 'edit_file',
    path: real.ok ? real.path : resolved.path,
    linkPath: resolved.path,
    command: `edit_file ${path}`,
    cwd: await realpath(cwd).catch(() => cwd),
  });
  return checkResult(decided, decided.rule);
}

function checkResult(decided: GateDecision, rule: string): PolicyCheckResult {
  return { decision: decided.blocked ? 'deny' : decided.decision, level: decided.level, rule, reasons: decided.reasons };
}

import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { EngineLog } from '../../log/engineLog';
import type { TandemPaths } from '../../settings/paths';
import { PolicyFiles, SYSTEM_POLICY_FILE } from '../policy/policyFiles';
import { ApprovalGate } from './approvalGate';
import { OwnFilesWatch } from './ownFilesWatch';

export interface GateSetupOptions {
  /** The system policy (default /etc/tandem/policy.toml); tests point it elsewhere. */
  systemPolicyFile?: string;
  hookTimeoutMs?: number;
  /** A `tandem agent` run's own policy files (its parent's first): judged with the others, but they can only narrow them. */
  runPolicyFiles?: readonly string[];
  log?: Pick<EngineLog, 'warning'>;
}

/** Where the user's policy and hooks live. */
export function policyLocations(paths: TandemPaths): { policyFile: string; hooksDir: string } {
  return { policyFile: join(paths.configDir, 'policy.toml'), hooksDir: join(paths.configDir, 'hooks') };
}

/** Tandem's own files: config, policy, hooks, keys, session, audit log, and the system policy's folder. */
export function tandemOwnPaths(paths: TandemPaths, systemPolicyFile = SYSTEM_POLICY_FILE): string[] {
  return [paths.configDir, paths.dataDir, paths.stateDir, dirname(systemPolicyFile)];
}

/**
 * Paths no agent command may change without the user naming them in a policy: ssh keys and
 * shell startup files (RED), and Tandem's own files (never, whatever the policy says).
 */
export function protectedPaths(paths: TandemPaths, home: string, systemPolicyFile?: string): string[] {
  const homeFiles = [
    '.ssh', '.gnupg', '.bashrc', '.bash_profile', '.bash_login', '.bash_logout', '.profile', '.zshenv', '.zprofile', '.zshrc', '.zlogin', '.zlogout',
    '.config/fish', '.inputrc',
  ];
  return [...homeFiles.map((name) => join(home, name)), ...tandemOwnPaths(paths, systemPolicyFile)];
}

/** The approval gate for this user: layered policy files, hooks dir, protected paths. */
export function createApprovalGate(paths: TandemPaths, env: NodeJS.ProcessEnv, options: GateSetupOptions = {}): ApprovalGate {
  const home = env.HOME || homedir();
  const systemPolicyFile = options.systemPolicyFile ?? SYSTEM_POLICY_FILE;
  const { policyFile, hooksDir } = policyLocations(paths);
  return new ApprovalGate({
    home,
    protectedPaths: protectedPaths(paths, home, systemPolicyFile),
    tandemPaths: tandemOwnPaths(paths, systemPolicyFile),
    policy: new PolicyFiles([
      { file: systemPolicyFile, kind: 'system' },
      { file: policyFile, kind: 'user' },
      ...(options.runPolicyFiles ?? []).map((file) => ({ file, kind: 'run' as const })),
    ]),
    hooksDir,
    hookTimeoutMs: options.hookTimeoutMs,
    env,
    ownFiles: new OwnFilesWatch([paths.configDir, systemPolicyFile]),
    log: options.log,
  });
}

import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApprovalGate } from '../../src/main/safety/approval/approvalGate';
import { createApprovalGate } from '../../src/main/safety/approval/gateSetup';
import { tandemPaths, type TandemPaths } from '../../src/main/settings/paths';

export interface GateHome {
  /** The temp folder holding everything (remove it after the test). */
  root: string;
  home: string;
  env: NodeJS.ProcessEnv;
  paths: TandemPaths;
  /** The system policy file's path (absent until a test writes it). */
  systemPolicyFile: string;
  gate: ApprovalGate;
}

/** A home in a temp folder with Tandem's config folder, and a real approval gate over its policy files and hooks. */
export function makeGateHome(prefix: string, options: { hookTimeoutMs?: number; env?: Record<string, string> } = {}): GateHome {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const home = join(root, 'home');
  mkdirSync(home, { recursive: true });
  const env = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    ...options.env,
  };
  const paths = tandemPaths(env);
  mkdirSync(paths.configDir, { recursive: true });
  const systemPolicyFile = join(root, 'etc', 'tandem', 'policy.toml');
  const gate = createApprovalGate(paths, env, { systemPolicyFile, ...(options.hookTimeoutMs ? { hookTimeoutMs: options.hookTimeoutMs } : {}) });
  return { root, home, env, paths, systemPolicyFile, gate };
}

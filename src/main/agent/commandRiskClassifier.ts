import { join } from 'node:path';
import { classifyCommand } from '../safety/commandRisk';
import type { TandemPaths } from '../settings/paths';
import type { RiskClassifier } from './plan';

/**
 * Paths no agent command may write, whatever the policy says: the user's ssh keys and shell
 * startup files, and Tandem's own config, policy, hooks, keys and logs.
 */
export function protectedPaths(paths: TandemPaths, home: string): string[] {
  return [
    join(home, '.ssh'),
    join(home, '.bashrc'),
    join(home, '.bash_profile'),
    join(home, '.bash_login'),
    join(home, '.bash_logout'),
    join(home, '.profile'),
    join(home, '.zshenv'),
    join(home, '.zprofile'),
    join(home, '.zshrc'),
    join(home, '.zlogin'),
    join(home, '.zlogout'),
    join(home, '.config/fish'),
    join(home, '.inputrc'),
    paths.configDir,
    paths.dataDir,
    paths.stateDir,
    '/etc/tandem',
  ];
}

/** The agent's view of command risk: level and reasons, from a real bash parse. */
export function commandRiskClassifier(paths: TandemPaths, home: string): RiskClassifier {
  const protectedList = protectedPaths(paths, home);
  return async (command, cwd) => {
    const { level, reasons } = await classifyCommand(command, { cwd: cwd || home, home, protectedPaths: protectedList });
    return { level, reasons };
  };
}

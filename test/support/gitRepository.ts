import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';

/**
 * A git repository with `count` empty commits, so `git log` fills more than a screen; git's
 * pager is left to its default (less with LESS=FRX) and no config of the machine's applies.
 */
export function repositoryWithCommits(dir: string, count: number): void {
  mkdirSync(dir, { recursive: true });
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env: { ...process.env, HOME: dir, GIT_CONFIG_NOSYSTEM: '1' } });
  git('init', '-q');
  for (let n = 1; n <= count; n++) {
    git('-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '-q', '--allow-empty', '-m', `commit number ${n}`);
  }
}

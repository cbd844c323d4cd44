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

/**
 * A git repository whose `git log` prints far more than a pipe holds (`count` commits with a
 * few lines of message each), made in one `git fast-import`: quitting the pager early then
 * leaves git writing into a closed pipe (SIGPIPE, exit 141), as in a real project.
 */
export function repositoryWithLongHistory(dir: string, count: number): void {
  mkdirSync(dir, { recursive: true });
  const env = { ...process.env, HOME: dir, GIT_CONFIG_NOSYSTEM: '1' };
  execFileSync('git', ['init', '-q'], { cwd: dir, env });
  const body = 'A line of the commit message that makes the log long enough to fill the pipe.\n'.repeat(4);
  let stream = '';
  for (let n = 1; n <= count; n++) {
    const message = `commit number ${n}\n\n${body}`;
    stream += `commit refs/heads/master\ncommitter T <t@example.com> ${1_700_000_000 + n} +0000\ndata ${Buffer.byteLength(message)}\n${message}\n`;
  }
  execFileSync('git', ['fast-import', '--quiet'], { cwd: dir, env, input: stream });
  execFileSync('git', ['symbolic-ref', 'HEAD', 'refs/heads/master'], { cwd: dir, env });
}

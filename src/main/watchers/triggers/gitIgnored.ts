import { spawn } from 'node:child_process';

/**
 * Which of `paths` (absolute) git ignores in the work tree at `dir`: `git check-ignore
 * --stdin`, so nested .gitignore files, negations, .git/info/exclude and the global excludes
 * file count exactly as git counts them, and a tracked file is never ignored. Outside a git
 * work tree (or without git) nothing is ignored: docs/watchers.md says so.
 */
export function gitIgnored(dir: string, paths: readonly string[]): Promise<Set<string>> {
  if (paths.length === 0) return Promise.resolve(new Set());
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn('git', ['check-ignore', '--stdin', '-z'], { cwd: dir, stdio: ['pipe', 'pipe', 'ignore'] });
    } catch {
      resolve(new Set());
      return;
    }
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => (out += chunk));
    // Exit 1 means "none ignored", 128 "not a work tree"; either way the paths are kept as they are.
    child.on('close', (code) => resolve(code === 0 ? new Set(out.split('\0').filter(Boolean)) : new Set()));
    child.on('error', () => resolve(new Set()));
    child.stdin.on('error', () => undefined);
    child.stdin.end(paths.join('\0') + '\0');
  });
}

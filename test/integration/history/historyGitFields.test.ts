import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { findGitPlace, GitPlaces } from '../../../src/main/history/recording/gitPlaces';

// Repositories made by git itself in a temp folder: a branch, a linked worktree, a submodule,
// a detached HEAD, and a folder outside any repository.

let dir: string;

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'tandem-history-git-')));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', '-c', 'init.defaultBranch=main', '-c', 'protocol.file.allow=always', ...args], {
    cwd,
    env: { ...process.env, HOME: dir, GIT_CONFIG_NOSYSTEM: '1' },
    stdio: 'ignore',
  });
}

function repository(name: string): string {
  const root = join(dir, name);
  mkdirSync(join(root, 'src', 'deep'), { recursive: true });
  git(root, 'init', '-q');
  git(root, 'commit', '-q', '--allow-empty', '-m', 'first');
  return root;
}

it('finds the repository root and branch from any folder inside it, and follows a checkout', async () => {
  const root = repository('app');
  expect(await findGitPlace(root)).toEqual({ repoRoot: root, branch: 'main' });
  expect(await findGitPlace(join(root, 'src', 'deep'))).toEqual({ repoRoot: root, branch: 'main' });
  git(root, 'checkout', '-q', '-b', 'feature/login-page');
  expect(await findGitPlace(join(root, 'src'))).toEqual({ repoRoot: root, branch: 'feature/login-page' });
});

it('a detached HEAD has no branch, and a folder outside any repository has no place', async () => {
  const root = repository('app');
  git(root, 'checkout', '-q', '--detach');
  expect(await findGitPlace(join(root, 'src'))).toEqual({ repoRoot: root, branch: null });
  const outside = join(dir, 'plain', 'folder');
  mkdirSync(outside, { recursive: true });
  expect(await findGitPlace(outside)).toBeNull();
  expect(await findGitPlace(join(dir, 'does', 'not', 'exist'))).toBeNull();
});

it('a linked worktree and a submodule are repositories of their own, with their own HEAD', async () => {
  const root = repository('app');
  const worktree = join(dir, 'app-hotfix');
  git(root, 'worktree', 'add', '-q', '-b', 'hotfix', worktree);
  expect(statSync(join(worktree, '.git')).isFile()).toBe(true);
  mkdirSync(join(worktree, 'lib'));
  expect(await findGitPlace(join(worktree, 'lib'))).toEqual({ repoRoot: worktree, branch: 'hotfix' });
  expect(await findGitPlace(root)).toEqual({ repoRoot: root, branch: 'main' });

  const library = repository('library');
  git(library, 'checkout', '-q', '-b', 'stable');
  git(root, 'submodule', 'add', '-q', library, 'vendor/library');
  const submodule = join(root, 'vendor', 'library');
  // Its .git is a `gitdir:` file pointing into the superproject's .git/modules.
  expect(statSync(join(submodule, '.git')).isFile()).toBe(true);
  expect(await findGitPlace(submodule)).toEqual({ repoRoot: submodule, branch: 'stable' });
  git(submodule, 'checkout', '-q', '--detach');
  expect(await findGitPlace(submodule)).toEqual({ repoRoot: submodule, branch: null });
});

it('keeps a folder\'s answer for a few seconds, then reads it again', async () => {
  const root = repository('app');
  let now = 1_000;
  const places = new GitPlaces(() => now);
  expect(await places.of(root)).toEqual({ repoRoot: root, branch: 'main' });
  git(root, 'checkout', '-q', '-b', 'next');
  expect(await places.of(root)).toEqual({ repoRoot: root, branch: 'main' });
  now += 5_001;
  expect(await places.of(root)).toEqual({ repoRoot: root, branch: 'next' });
  expect(await places.of('')).toBeNull();
  expect(await places.of('relative/path')).toBeNull();
});

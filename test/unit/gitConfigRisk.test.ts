/**
 * git read commands against real repositories (issue 14): GREEN in a clean repository, YELLOW —
 * with the key named — when the effective config names a program git runs for that subcommand.
 * The config is read from the files; nothing it names may run while a command is classified.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { classifyCommand, type RiskResult } from '../../src/main/safety/commandRisk';
import { clearGitConfigCache, parseGitConfig, readGitConfig } from '../../src/main/safety/gitConfig';

let root: string;
let home: string;
let repo: string;
let marker: string;
let evil: string;

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e' } });

const classify = (command: string, cwd = repo): Promise<RiskResult> => classifyCommand(command, { cwd, home, protectedPaths: [join(home, '.ssh')] });

/** A fresh repository with one commit. */
function freshRepo(name: string): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q');
  writeFileSync(join(dir, 'a.txt'), 'a\n');
  git(dir, 'add', 'a.txt');
  git(dir, 'commit', '-q', '-m', 'one');
  return dir;
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'tandem-gitconfig-'));
  home = join(root, 'home');
  mkdirSync(home);
  marker = join(root, 'ran');
  // The program every config below names: it would leave a marker if anything ran it.
  evil = join(root, 'evil.sh');
  writeFileSync(evil, `#!/bin/sh\ntouch '${marker}'\ncat\n`);
  chmodSync(evil, 0o755);
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

beforeEach(() => {
  clearGitConfigCache();
  rmSync(marker, { force: true });
  repo = freshRepo(`r${Math.random().toString(36).slice(2)}`);
});

describe('git read commands and the repository config', () => {
  it('keeps git status, diff, log, show, blame GREEN in a clean repository', async () => {
    for (const command of ['git status', 'git diff', 'git log --oneline', 'git log -p', 'git show', 'git blame a.txt', 'git grep a', 'git branch', 'git ls-remote origin']) {
      const result = await classify(command);
      expect(result.level, `${command}: ${result.reasons.join(' | ')}`).toBe('green');
    }
  });

  it.each([
    ['core.fsmonitor', 'git status', /core\.fsmonitor/],
    ['core.fsmonitor', 'git diff', /core\.fsmonitor/],
    ['core.pager', 'git log', /core\.pager = .*evil\.sh, which git runs as its pager/],
    ['pager.status', 'git status', /pager\.status/],
    ['diff.external', 'git diff', /diff\.external/],
    ['diff.external', 'git show', /diff\.external/],
    ['diff.x.textconv', 'git log -p', /diff\.x\.textconv/],
    ['diff.x.textconv', 'git blame a.txt', /diff\.x\.textconv/],
    ['diff.x.command', 'git diff', /diff\.x\.command/],
    ['filter.x.clean', 'git status', /filter\.x\.clean/],
    ['filter.x.process', 'git diff', /filter\.x\.process/],
    ['hook.audit.command', 'git status', /hook\.audit\.command/],
    ['gpg.program', 'git log --show-signature', /gpg\.program/],
    ['gpg.ssh.program', 'git verify-commit HEAD', /gpg\.ssh\.program/],
    ['core.sshCommand', 'git ls-remote origin', /core\.sshcommand/],
    ['credential.helper', 'git ls-remote origin', /credential\.helper/],
    ['remote.origin.uploadpack', 'git ls-remote origin', /remote\.origin\.uploadpack/],
    ['trace2.normalTarget', 'git status', /trace2\.normaltarget/],
    ['man.viewer', 'git help log', /man\.viewer/],
  ])('%s makes `%s` YELLOW, naming the key, and runs nothing', async (key, command, reason) => {
    git(repo, 'config', key, evil);
    const result = await classify(command);
    expect(result.level).toBe('yellow');
    expect(result.reasons.join(' | ')).toMatch(reason);
    expect(result.reasons.join(' | ')).toMatch(/the repository's config/);
    expect(existsSync(marker)).toBe(false);
  });

  it('judges only the keys that matter for the subcommand', async () => {
    git(repo, 'config', 'core.pager', evil);
    git(repo, 'config', 'gpg.program', evil);
    git(repo, 'config', 'core.sshCommand', evil);
    git(repo, 'config', 'core.editor', evil);
    expect((await classify('git status')).level).toBe('green'); // status does not page
    expect((await classify('git -P log')).level).toBe('green');
    expect((await classify('git --no-pager diff')).level).toBe('green');
    expect((await classify('git log')).level).toBe('yellow');
    expect(existsSync(marker)).toBe(false);
  });

  it('an agent step runs with GIT_PAGER=cat: no configured pager runs, so none is judged — unless the line may drop the variable', async () => {
    git(repo, 'config', 'core.pager', evil);
    git(repo, 'config', 'pager.show', 'rm -rf ~');
    const step = (command: string) => classifyCommand(command, { cwd: repo, home, protectedPaths: [], environment: { GIT_PAGER: 'cat', PAGER: 'cat' } });
    expect((await classify('git log')).level).toBe('yellow');
    expect((await step('git log')).level).toBe('green');
    expect((await step('git show')).level).toBe('green');
    expect((await classifyCommand('git log', { cwd: repo, home, protectedPaths: [], environment: { GIT_PAGER: '' } })).level).toBe('green');
    expect((await classifyCommand('git log', { cwd: repo, home, protectedPaths: [], environment: { GIT_PAGER: 'less' } })).level).toBe('yellow');
    // Other keys still count.
    git(repo, 'config', 'diff.external', evil);
    expect((await step('git diff')).level).toBe('yellow');
    expect(existsSync(marker)).toBe(false);
  });

  it('judges a pager as a command: less stays GREEN, rm does not', async () => {
    git(repo, 'config', 'core.pager', 'less -FRX');
    expect((await classify('git log')).level).toBe('green');
    git(repo, 'config', 'core.pager', 'rm -rf ~');
    expect((await classify('git log')).level).toBe('red');
  });

  it('treats core.fsmonitor = true/false as no program', async () => {
    git(repo, 'config', 'core.fsmonitor', 'false');
    expect((await classify('git status')).level).toBe('green');
  });

  it('sees an executable post-index-change hook (git status writes the index), also under core.hooksPath', async () => {
    const hook = join(repo, '.git', 'hooks', 'post-index-change');
    writeFileSync(hook, `#!/bin/sh\ntouch '${marker}'\n`);
    expect((await classify('git status')).level).toBe('green'); // not executable: git does not run it
    chmodSync(hook, 0o755);
    const result = await classify('git status');
    expect(result.level).toBe('yellow');
    expect(result.reasons.join(' ')).toMatch(/post-index-change hook/);
    expect((await classify('git log --oneline')).level).toBe('green');

    rmSync(hook);
    const hooks = join(root, 'hooks');
    mkdirSync(hooks, { recursive: true });
    writeFileSync(join(hooks, 'post-index-change'), '#!/bin/sh\n');
    chmodSync(join(hooks, 'post-index-change'), 0o755);
    git(repo, 'config', 'core.hooksPath', hooks);
    expect((await classify('git diff')).level).toBe('yellow');
    expect(existsSync(marker)).toBe(false);
  });

  it('follows include.path and includeIf, whatever the condition', async () => {
    const included = join(root, 'included.gitconfig');
    writeFileSync(included, `[core]\n\tfsmonitor = ${evil}\n`);
    git(repo, 'config', 'include.path', included);
    let result = await classify('git status');
    expect(result.level).toBe('yellow');
    expect(result.reasons.join(' ')).toContain('included.gitconfig');

    git(repo, 'config', '--unset', 'include.path');
    expect((await classify('git status')).level).toBe('green');
    git(repo, 'config', 'includeIf.gitdir:/nowhere/.path', included);
    result = await classify('git status');
    expect(result.level).toBe('yellow');
    expect(existsSync(marker)).toBe(false);
  });

  it("reads the user's ~/.gitconfig and $XDG_CONFIG_HOME/git/config", async () => {
    writeFileSync(join(home, '.gitconfig'), `[diff]\n\texternal = ${evil}\n`);
    const result = await classify('git diff');
    expect(result.level).toBe('yellow');
    expect(result.reasons.join(' ')).toContain('~/.gitconfig sets diff.external');
    rmSync(join(home, '.gitconfig'));
    mkdirSync(join(home, '.config', 'git'), { recursive: true });
    writeFileSync(join(home, '.config', 'git', 'config'), `[core]\n\tfsmonitor = ${evil}\n`);
    expect((await classify('git status')).level).toBe('yellow');
    rmSync(join(home, '.config'), { recursive: true });
  });

  it('finds the repository from a subdirectory, through -C, after cd, and for a linked worktree', async () => {
    // The worktree is made first: git worktree add would itself run the fsmonitor.
    const worktree = join(root, `wt${Math.random().toString(36).slice(2)}`);
    git(repo, 'worktree', 'add', '-q', worktree);
    git(repo, 'config', 'core.fsmonitor', evil);
    const deep = join(repo, 'src', 'deep');
    mkdirSync(deep, { recursive: true });
    expect((await classify('git status', deep)).level).toBe('yellow');
    expect((await classify(`git -C ${repo} status`, root)).level).toBe('yellow');
    expect((await classify(`cd ${repo} && git status`, root)).level).toBe('yellow');
    expect((await classify(`git --git-dir=${join(repo, '.git')} status`, root)).level).toBe('yellow');
    expect((await classify('git status', root)).level).toBe('green');

    expect((await classify('git status', worktree)).level).toBe('yellow');
    git(repo, 'config', '--unset', 'core.fsmonitor');
    expect((await classify('git status', worktree)).level).toBe('green');
    git(repo, 'config', 'extensions.worktreeConfig', 'true');
    git(worktree, 'config', '--worktree', 'core.fsmonitor', evil);
    expect((await classify('git status', worktree)).level).toBe('yellow');
    expect((await classify('git status', repo)).level).toBe('green');
    expect(existsSync(marker)).toBe(false);
  });

  it('sees a submodule config with core.fsmonitor for git status', async () => {
    const modules = join(repo, '.git', 'modules', 'lib');
    mkdirSync(modules, { recursive: true });
    writeFileSync(join(modules, 'config'), `[core]\n\tfsmonitor = ${evil}\n`);
    expect((await classify('git status')).level).toBe('yellow');
    expect((await classify('git log --oneline')).level).toBe('green');
  });

  it('is YELLOW when the directory or the config cannot be known', async () => {
    expect((await classify('cd "$DIR" && git status')).level).toBe('yellow');
    expect((await classify('git -C "$DIR" status')).level).toBe('yellow');
    appendFileSync(join(repo, '.git', 'config'), '[core\n\tpager = x\n');
    const result = await classify('git status');
    expect(result.level).toBe('yellow');
    expect(result.reasons.join(' ')).toMatch(/could not read git's config/);
  });

  it('notices a change to the config (the cache is keyed by the files’ stamps)', async () => {
    expect((await classify('git diff')).level).toBe('green');
    git(repo, 'config', 'diff.external', evil);
    expect((await classify('git diff')).level).toBe('yellow');
    git(repo, 'config', '--unset', 'diff.external');
    expect((await classify('git diff')).level).toBe('green');
    // A .git appearing in a directory that had none.
    const plain = join(root, `plain${Math.random().toString(36).slice(2)}`);
    mkdirSync(plain);
    expect((await classify('git status', plain)).level).toBe('green');
    git(plain, 'init', '-q');
    git(plain, 'config', 'core.fsmonitor', evil);
    expect((await classify('git status', plain)).level).toBe('yellow');
    expect(existsSync(marker)).toBe(false);
  });

  it('keeps -c, --exec-path, --config-env and GIT_* prefixes YELLOW', async () => {
    for (const command of [`git -c core.fsmonitor=${evil} status`, 'git -c uploadpack.packObjectsHook=x status', 'git --exec-path=/tmp status', 'git --config-env=core.pager=P log', 'GIT_DIR=/tmp/x git status', 'GIT_EXEC_PATH=/tmp git status', 'GIT_EXTERNAL_DIFF=x git diff', 'GIT_SSH_COMMAND=x git ls-remote', 'GIT_CONFIG_GLOBAL=/tmp/c git log', 'git grep -O a', 'git help -w log']) {
      expect((await classify(command)).level, command).not.toBe('green');
    }
    expect((await classify('GIT_PAGER=cat git log')).level).toBe('green');
  });
});

describe('the git config parser', () => {
  it('reads what git reads (checked against git config --list)', () => {
    const file = join(root, 'tricky.gitconfig');
    const text = [
      '\uFEFF# comment',
      '[core] ; a comment',
      '\tpager = "less -R" # trailing comment',
      '[Diff "Driver.Name"]',
      '\ttextconv = a\\',
      ' b',
      '[url "ext::x"]',
      '\tinsteadOf = y',
      '[section]bare',
      '\tquoted = "a \\" ; #b" c',
      '[filter "x"] clean = z',
    ].join('\n');
    writeFileSync(file, text);
    const expected = git(root, 'config', '--file', file, '--list')
      .trim()
      .split('\n')
      .map((line) => {
        const eq = line.indexOf('=');
        return eq < 0 ? [line, 'undefined'] : [line.slice(0, eq), line.slice(eq + 1)];
      });
    const parsed = parseGitConfig(text).map((e) => [e.key.toLowerCase(), String(e.value)]);
    expect(parsed).toEqual(expected.map(([k, v]) => [k?.toLowerCase(), v]));
  });

  it('round-trips any value written quoted and escaped', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/), fc.string({ maxLength: 40 }).filter((v) => !v.includes('\n') && !v.includes('\r') && !v.includes('\t') && !v.includes('\b')), (name, value) => {
        const text = `[s "sub"]\n\t${name} = "${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"\n`;
        expect(parseGitConfig(text)).toEqual([{ key: `s.sub.${name}`, value }]);
      }),
    );
  });

  it('never runs anything and never throws on garbage', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        try {
          parseGitConfig(text);
        } catch (err) {
          expect(err).toBeInstanceOf(Error);
        }
      }),
    );
    const dir = join(root, 'garbage');
    mkdirSync(join(dir, '.git'), { recursive: true });
    writeFileSync(join(dir, '.git', 'config'), '\u0000\u0001[[[');
    expect(readGitConfig(dir, { home }).problems.length).toBeGreaterThan(0);
  });
});

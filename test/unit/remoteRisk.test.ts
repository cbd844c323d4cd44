/**
 * A step on another host (the pane's shell reached with `ssh`) is judged without this
 * machine's files: a local repository at the same path, whose config would name programs, is
 * never read for it; what would have depended on local files is YELLOW, naming the host.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyCommand, type RiskResult } from '../../src/main/safety/commandRisk';
import { clearGitConfigCache } from '../../src/main/safety/gitConfig';

let root: string;
let home: string;
let repo: string;
let clean: string;

const DB1 = { host: 'db1', user: 'deploy' };

const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, HOME: home, GIT_CONFIG_NOSYSTEM: '1' } });

const classify = (command: string, cwd: string, remote?: typeof DB1): Promise<RiskResult> =>
  classifyCommand(command, { cwd, home, protectedPaths: [join(home, '.ssh')], ...(remote ? { remote } : {}) });

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'tandem-remote-risk-'));
  home = join(root, 'home');
  mkdirSync(home);
  // A local repository whose config names programs git would run for `git status` and `git log`.
  repo = join(root, 'srv', 'app');
  mkdirSync(repo, { recursive: true });
  git(repo, 'init', '-q');
  git(repo, 'config', 'core.fsmonitor', '/tmp/evil-fsmonitor');
  git(repo, 'config', 'core.pager', '/tmp/evil-pager');
  clean = join(root, 'clean');
  mkdirSync(clean);
  git(clean, 'init', '-q');
  writeFileSync(join(clean, '.ackrc'), '--pager=/tmp/evil-pager\n');
  clearGitConfigCache();
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('classifying a step on another host', () => {
  it('locally, the repository config at that path makes git status YELLOW for core.fsmonitor (read from the files)', async () => {
    const local = await classify('git status', repo);
    expect(local.level).toBe('yellow');
    expect(local.reasons.join('\n')).toContain('core.fsmonitor');
    expect(local.readsFiles).toBe(true);
    expect(local.host).toBeUndefined();
  });

  it('on db1 the same path is not read: YELLOW because its git config is not readable from here, naming the host', async () => {
    const remote = await classify('git status', repo, DB1);
    expect(remote.level).toBe('yellow');
    expect(remote.reasons.some((reason) => reason.startsWith('on db1: its git config is not readable from here'))).toBe(true);
    // Nothing from the local repository's config reaches the verdict, and no file was read for it.
    expect(remote.reasons.join('\n')).not.toMatch(/fsmonitor =|evil|\.git\/config/);
    expect(remote.readsFiles).toBeUndefined();
    expect(remote.host).toBe('db1');
  });

  it('a clean local repository does not make the remote git read GREEN either', async () => {
    expect((await classify('git status', clean)).level).toBe('green');
    const remote = await classify('git log --oneline', clean, DB1);
    expect(remote.level).toBe('yellow');
    expect(remote.reasons.join('\n')).toContain('on db1:');
    expect((await classify('git -P diff', clean, DB1)).level).toBe('yellow');
  });

  it("ack's project .ackrc is not looked for here; --noenv needs none", async () => {
    expect((await classify('ack foo', clean)).reasons.join('\n')).toContain('.ackrc');
    const remote = await classify('ack foo', clean, DB1);
    expect(remote.level).toBe('yellow');
    expect(remote.reasons.join('\n')).toContain('on db1: its .ackrc files are not readable from here');
    expect(remote.readsFiles).toBeUndefined();
    expect((await classify('ack --noenv foo', clean, DB1)).level).toBe('green');
  });

  it('what depends on no file is judged as anywhere: plain reads GREEN, catastrophes RED', async () => {
    for (const command of ['ls -la', 'uname -a', 'cat /etc/os-release', 'df -h']) expect((await classify(command, '/srv/app', DB1)).level, command).toBe('green');
    expect((await classify('rm -rf /', '/srv/app', DB1)).level).toBe('red');
    expect((await classify('rm -rf ~', '/srv/app', DB1)).level).toBe('red');
    expect((await classify('npm install', '/srv/app', DB1)).level).toBe('yellow');
  });
});

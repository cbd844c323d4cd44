import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseArguments } from '../../src/main/cli/arguments';
import { runPolicyEditCheck } from '../../src/main/cli/policyCheckCommand';

describe('parseArguments', () => {
  it('parses tandem web with its options in both spellings', () => {
    expect(parseArguments(['web', '--port', '0', '--shell', '/usr/bin/zsh', '--no-open', '--verbose'])).toEqual({
      kind: 'web',
      port: 0,
      shell: '/usr/bin/zsh',
      open: false,
      verbose: true,
    });
    expect(parseArguments(['web', '--port=8123'])).toEqual({ kind: 'web', port: 8123, shell: undefined, open: true, verbose: false });
  });

  it('starts the app without arguments and answers help and version', () => {
    expect(parseArguments([])).toEqual({ kind: 'app' });
    expect(parseArguments(['--help']).kind).toBe('help');
    expect(parseArguments(['--version']).kind).toBe('version');
  });

  it("answers `tandem agent --version` itself, and hands every other agent command line to the agent's parser", () => {
    expect(parseArguments(['agent', '--version'])).toEqual({ kind: 'version' });
    expect(parseArguments(['agent', '--version', '--json'])).toEqual({ kind: 'agent', argv: ['--version', '--json'] });
    expect(parseArguments(['agent', '-c', 'hello', '--version'])).toEqual({ kind: 'agent', argv: ['-c', 'hello', '--version'] });
    expect(parseArguments(['agent', '--help'])).toEqual({ kind: 'agent', argv: ['--help'] });
  });

  it('explains bad input instead of throwing', () => {
    expect(parseArguments(['web', '--port', 'abc'])).toMatchObject({ kind: 'error', message: expect.stringContaining('--port') });
    expect(parseArguments(['web', '--port', '70000']).kind).toBe('error');
    expect(parseArguments(['web', '--shell']).kind).toBe('error');
    expect(parseArguments(['web', '--bogus']).kind).toBe('error');
    expect(parseArguments(['frobnicate']).kind).toBe('error');
  });
});

describe('tandem policy check', () => {
  it('takes the command after --, or the words that follow', () => {
    expect(parseArguments(['policy', 'check', '--', 'rm -rf /'])).toEqual({ kind: 'policy-check', command: 'rm -rf /' });
    expect(parseArguments(['policy', 'check', 'git', 'status'])).toEqual({ kind: 'policy-check', command: 'git status' });
    expect(parseArguments(['policy', 'check', '--cwd', '/srv/app', '--', 'rm -rf build'])).toEqual({ kind: 'policy-check', command: 'rm -rf build', cwd: '/srv/app' });
    expect(parseArguments(['policy', 'check', '--cwd=/srv/app', 'ls'])).toEqual({ kind: 'policy-check', command: 'ls', cwd: '/srv/app' });
    expect(parseArguments(['policy', 'check', '--cwd'])).toMatchObject({ kind: 'error' });
    expect(parseArguments(['policy', 'check'])).toMatchObject({ kind: 'error' });
    expect(parseArguments(['policy', 'frobnicate'])).toMatchObject({ kind: 'error' });
    expect(parseArguments(['policy', 'check', '--edit', 'src/app.ts'])).toEqual({ kind: 'policy-check-edit', path: 'src/app.ts' });
    expect(parseArguments(['policy', 'check', '--cwd', '/srv/app', '--edit=src/app.ts'])).toEqual({ kind: 'policy-check-edit', path: 'src/app.ts', cwd: '/srv/app' });
    expect(parseArguments(['policy', 'check', '--edit', 'a', '--', 'ls'])).toMatchObject({ kind: 'error', message: expect.stringContaining('not both') });
    expect(parseArguments(['policy', 'check', '--edit'])).toMatchObject({ kind: 'error', message: expect.stringContaining('--edit') });
  });

  it('prints one JSON line with decision, level, rule and reasons, and exits 0', async () => {
    const { execFileSync } = await import('node:child_process');
    const run = (command: string) =>
      JSON.parse(execFileSync(process.execPath, [join(__dirname, '../../bin/tandem.js'), 'policy', 'check', '--', command], { encoding: 'utf8' }));
    expect(run('rm -rf ~')).toMatchObject({ decision: 'deny', level: 'red' });
    expect(run('rm -rf ~').reasons.length).toBeGreaterThan(0);
    expect(run('git status')).toMatchObject({ decision: 'ask', level: 'green' });
    expect(run('npm install')).toMatchObject({ decision: 'ask', level: 'yellow' });
    // Four node processes in a row: on a loaded machine that alone can take most of a minute.
  }, 120_000);
});

describe('tandem policy check --edit', () => {
  let home: string;
  let project: string;
  // A system policy folder of its own: Tandem's own files include the folder of the system policy.
  let system: string;
  const env = () => ({ HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local/share'), XDG_STATE_HOME: join(home, '.local/state') });
  const check = (path: string) => runPolicyEditCheck(path, env(), project, { systemPolicyFile: join(system, 'policy.toml') });

  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'tandem-policy-edit-'));
    system = mkdtempSync(join(tmpdir(), 'tandem-system-policy-'));
    project = join(home, 'proj');
    mkdirSync(join(project, 'src'), { recursive: true });
    mkdirSync(join(project, 'secrets'));
    mkdirSync(join(home, '.config/tandem'), { recursive: true });
    writeFileSync(join(home, '.config/tandem/policy.toml'), '[approval.filesystem]\nwrite = ["$CWD/src/**"]\ndeny = ["$CWD/secrets/**"]\n');
  });
  afterEach(() => {
    rmSync(home, { recursive: true, force: true });
    rmSync(system, { recursive: true, force: true });
  });

  it('judges a file path as the gate judges an edit step: write and deny globs, outside the directory, key files, own files', async () => {
    expect(await check('src/app.ts')).toMatchObject({ decision: 'allow', level: 'yellow', rule: expect.stringContaining('write') });
    expect(await check('secrets/token')).toMatchObject({ decision: 'deny', rule: expect.stringContaining('deny') });
    expect(await check('README.md')).toMatchObject({ decision: 'ask', rule: 'default: file edits ask (YELLOW)' });
    expect(await check('/etc/hosts')).toMatchObject({ decision: 'ask', rule: expect.stringContaining("outside the pane's working directory") });
    expect(await check('~/.bashrc')).toMatchObject({ decision: 'deny', level: 'red' });
    expect(await check('~/.config/tandem/config.toml')).toMatchObject({ decision: 'deny', rule: expect.stringContaining("Tandem's own files") });
  });

  it('follows a symlink to what it names', async () => {
    symlinkSync(join(project, 'secrets'), join(project, 'src', 'linked'));
    expect(await check('src/linked/token')).toMatchObject({ decision: 'deny' });
  });

  it('prints one JSON line from the command line', async () => {
    const { execFileSync } = await import('node:child_process');
    const out = execFileSync(process.execPath, [join(__dirname, '../../bin/tandem.js'), 'policy', 'check', '--cwd', project, '--edit', 'secrets/key'], { encoding: 'utf8', env: { ...process.env, ...env() } });
    expect(JSON.parse(out)).toMatchObject({ decision: 'deny' });
  }, 60_000);
});

describe('tandem audit verify', () => {
  it('verifies the default log, or the one given with --file', () => {
    expect(parseArguments(['audit', 'verify'])).toEqual({ kind: 'audit-verify' });
    expect(parseArguments(['audit', 'verify', '--file', '/tmp/a.jsonl'])).toEqual({ kind: 'audit-verify', file: '/tmp/a.jsonl' });
    expect(parseArguments(['audit', 'verify', '--file=/tmp/a.jsonl'])).toEqual({ kind: 'audit-verify', file: '/tmp/a.jsonl' });
  });

  it('explains bad input instead of throwing', () => {
    expect(parseArguments(['audit'])).toMatchObject({ kind: 'error', message: expect.stringContaining('tandem audit verify') });
    expect(parseArguments(['audit', 'rewrite'])).toMatchObject({ kind: 'error' });
    expect(parseArguments(['audit', 'verify', '--file'])).toMatchObject({ kind: 'error', message: expect.stringContaining('--file') });
    expect(parseArguments(['audit', 'verify', '--bogus'])).toMatchObject({ kind: 'error' });
  });
});

import { describe, expect, it } from 'vitest';
import { parseArguments } from '../../src/main/cli/arguments';

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
  });

  it('prints one JSON line with decision, level, rule and reasons, and exits 0', async () => {
    const { execFileSync } = await import('node:child_process');
    const { join } = await import('node:path');
    const run = (command: string) =>
      JSON.parse(execFileSync(process.execPath, [join(__dirname, '../../bin/tandem.js'), 'policy', 'check', '--', command], { encoding: 'utf8' }));
    expect(run('rm -rf ~')).toMatchObject({ decision: 'deny', level: 'red' });
    expect(run('rm -rf ~').reasons.length).toBeGreaterThan(0);
    expect(run('git status')).toMatchObject({ decision: 'ask', level: 'green' });
    expect(run('npm install')).toMatchObject({ decision: 'ask', level: 'yellow' });
    // Four node processes in a row: on a loaded machine that alone can take most of a minute.
  }, 120_000);
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

import { execFile, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ptyModule, { type IPty } from 'node-pty';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BlockRecord } from '../../../src/main/history/historyRecord';
import { HistoryStore } from '../../../src/main/history/historyStore';
import { tandemPaths } from '../../../src/main/settings/paths';
import { TANDEM_BIN } from '../../support/agentCli';
import { makeTestHome, removeTestHome, testHomeEnv } from '../../support/testHome';
import { shellTimeout } from '../../support/shellTimeout';

// `tandem history` as a person or a script runs it: the built command (bin/tandem.js), in a home
// of its own (HOME and XDG_DATA_HOME in a temporary folder), against a history the test stored.

const FIXTURES = join(__dirname, '../../fixtures/history');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const JSON_FIELDS = ['id', 'command', 'cwd', 'exit_code', 'duration_ms', 'started_at', 'host', 'shell', 'pane', 'session', 'author', 'imported'];

let home: string;
let env: NodeJS.ProcessEnv;
let project: string;
const now = Date.now();

beforeAll(() => {
  if (!existsSync(join(__dirname, '../../../out/main/cli.js'))) throw new Error('tandem history tests run the built CLI: run `npm run build` first.');
});

beforeEach(async () => {
  home = makeTestHome('tandem-history-cli-');
  env = testHomeEnv(home);
  project = join(home, 'project');
  mkdirSync(project);
  const base = { host: 'laptop', shell: 'bash', session: 'pane-session', pane: '3', author: 'you' as const };
  const records: BlockRecord[] = [
    { ...base, key: 'k4', command: 'ls -la', cwd: '/tmp', exitCode: 0, startedAt: now - 10 * DAY, author: 'agent-step' },
    { ...base, key: 'k3', command: 'make test', cwd: project, exitCode: 1, startedAt: now - 3 * DAY },
    { ...base, key: 'k2', command: 'npm run build', cwd: join(project, 'web'), exitCode: 2, durationMs: 1500, startedAt: now - 2 * HOUR },
    { ...base, key: 'k1', command: 'kubectl logs web', cwd: project, exitCode: 0, durationMs: 20, startedAt: now - HOUR },
  ];
  const store = await HistoryStore.open({ file: tandemPaths(env).historyFile });
  try {
    expect(await store.record(records)).toMatchObject({ ok: true, value: { stored: 4 } });
  } finally {
    store.close();
  }
});

const terminals: IPty[] = [];
afterEach(() => {
  for (const terminal of terminals.splice(0)) terminal.kill('SIGKILL');
  removeTestHome(home);
});

function history(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [TANDEM_BIN, 'history', ...args], { env, cwd: home, encoding: 'utf8', timeout: shellTimeout(60_000) });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** `tandem history … --json`, each line parsed on its own. */
function historyJson(...args: string[]): Record<string, unknown>[] {
  const { code, stdout, stderr } = history(...args, '--json');
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  expect(stdout.endsWith('\n')).toBe(true);
  return stdout
    .slice(0, -1)
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const commands = (lines: Record<string, unknown>[]) => lines.map((line) => line.command);

describe('tandem history: search', () => {
  it('prints a table of the commands that contain the query, newest first', () => {
    const { code, stdout, stderr } = history('npm');
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const [header, ...rows] = stdout.trimEnd().split('\n');
    expect(header).toMatch(/^ID\s+WHEN\s+EXIT\s+TOOK\s+DIR\s+COMMAND$/);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatch(/\s2\s+1\.5 s\s+~\/project\/web\s+npm run build$/);
    expect(commands(historyJson())).toEqual(['kubectl logs web', 'npm run build', 'make test', 'ls -la']);
  });

  it('--json prints one object a line with every field', () => {
    const [line] = historyJson('kubectl');
    expect(Object.keys(line!)).toEqual(JSON_FIELDS);
    expect(line).toMatchObject({
      command: 'kubectl logs web',
      cwd: project,
      exit_code: 0,
      duration_ms: 20,
      started_at: new Date(now - HOUR).toISOString(),
      host: 'laptop',
      shell: 'bash',
      pane: '3',
      session: 'pane-session',
      author: 'you',
      imported: false,
    });
  });

  it('filters: --failed, --cwd (relative to here), --since a duration or a date, --limit', () => {
    expect(commands(historyJson('--failed'))).toEqual(['npm run build', 'make test']);
    expect(commands(historyJson('--cwd', 'project'))).toEqual(['kubectl logs web', 'make test']);
    expect(commands(historyJson('--cwd', project, '--failed'))).toEqual(['make test']);
    expect(commands(historyJson('--since', '2d'))).toEqual(['kubectl logs web', 'npm run build']);
    expect(commands(historyJson('--since=5h'))).toEqual(['kubectl logs web', 'npm run build']);
    const fiveDaysAgo = new Date(now - 5 * DAY);
    const date = `${fiveDaysAgo.getFullYear()}-${String(fiveDaysAgo.getMonth() + 1).padStart(2, '0')}-${String(fiveDaysAgo.getDate()).padStart(2, '0')}`;
    expect(commands(historyJson('--since', date))).toEqual(['kubectl logs web', 'npm run build', 'make test']);
    expect(commands(historyJson('--limit', '1'))).toEqual(['kubectl logs web']);
  });

  it('exits 1 and says so when nothing matches', () => {
    expect(history('terraform')).toEqual({ code: 1, stdout: '', stderr: 'tandem: no command in the history matches\n' });
    expect(history('terraform', '--json')).toEqual({ code: 1, stdout: '', stderr: '' });
  });

  it('reaches the database through the process that owns it', async () => {
    const store = await HistoryStore.open({ file: tandemPaths(env).historyFile });
    try {
      expect(store.isOwner).toBe(true);
      const { stdout } = await promisify(execFile)(process.execPath, [TANDEM_BIN, 'history', 'kubectl', '--json'], { env, timeout: shellTimeout(60_000) });
      expect(commands(stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>))).toEqual(['kubectl logs web']);
    } finally {
      store.close();
    }
  });
});

describe('tandem history: usage', () => {
  it.each([
    [['--limit', 'many'], '--limit needs a whole number from 1 to 1000, got "many".'],
    [['--limit', '1001'], '--limit needs a whole number from 1 to 1000, got "1001".'],
    [['--since', 'yesterday'], '--since takes a duration such as 2w, 7d, 24h or 30m, or an ISO date such as 2026-11-01; got "yesterday".'],
    [['--cwd'], '--cwd needs a directory.'],
    [['--colour'], 'Unknown option "--colour" for tandem history.'],
    [['forget'], 'tandem history forget needs record ids (see `tandem history`) or --query QUERY.'],
    [['forget', 'abc'], '"abc" is not a record id; ids are the numbers in the first column of `tandem history`.'],
    [['forget', '--failed'], 'tandem history forget: the filters go with --query QUERY.'],
    [['import', 'tcsh'], 'tandem history import reads bash, zsh, fish, atuin; "tcsh" is not one of them (a file goes after its format: tandem history import zsh FILE).'],
    [['stats', 'now'], 'Unknown argument "now" for tandem history stats.'],
  ])('%j is a usage error: exit 2, the reason and the usage', (args, message) => {
    const { code, stdout, stderr } = history(...args);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(new RegExp(`^tandem: ${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\nUsage:\n  tandem history \\[QUERY\\]`));
  });

  it('--help prints the usage of every form and exits 0', () => {
    const { code, stdout } = history('--help');
    expect(code).toBe(0);
    for (const form of ['tandem history [QUERY]', 'tandem history forget ID…', 'tandem history import [bash|zsh|fish|atuin] [FILE]', 'tandem history stats', 'Exit status']) expect(stdout).toContain(form);
    expect(history('forget', '--help').stdout).toBe(stdout);
  });
});

describe('tandem history forget', () => {
  it('deletes records by id; an id that is gone exits 1', () => {
    const id = String(historyJson('ls -la')[0]!.id);
    expect(history('forget', id)).toEqual({ code: 0, stdout: 'forgot 1 record\n', stderr: '' });
    expect(history('forget', id)).toEqual({ code: 1, stdout: 'forgot 0 records\n', stderr: 'tandem: 1 id matched no record\n' });
    expect(commands(historyJson())).not.toContain('ls -la');
  });

  it('deletes what a search finds with --yes, and without a terminal refuses to ask and deletes nothing', () => {
    const refused = history('forget', '--query', 'm', '--failed');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe('tandem: this would forget 2 records; there is no terminal to ask on, so nothing was deleted (add --yes to forget them without asking)\n');
    expect(commands(historyJson())).toHaveLength(4);
    expect(history('forget', '--query', 'm', '--failed', '--yes')).toEqual({ code: 0, stdout: 'forgot 2 records\n', stderr: '' });
    expect(commands(historyJson())).toEqual(['kubectl logs web', 'ls -la']);
  });

  it('at a terminal, shows what it would forget and deletes only after a yes', async () => {
    const ask = async (answer: string) => {
      const terminal = ptyModule.spawn(process.execPath, [TANDEM_BIN, 'history', 'forget', '--query', 'make'], { cols: 120, rows: 30, cwd: home, env: env as Record<string, string> });
      terminals.push(terminal);
      let screen = '';
      terminal.onData((data) => (screen += data));
      const exit = new Promise<number>((resolve) => terminal.onExit(({ exitCode }) => resolve(exitCode)));
      const deadline = Date.now() + shellTimeout(30_000);
      while (!screen.includes('Forget 1 record? [y/N]')) {
        if (Date.now() > deadline) throw new Error(`no question on the terminal; it shows:\n${screen}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(screen).toContain('make test');
      terminal.write(`${answer}\r`);
      return { code: await exit, screen: () => screen };
    };
    const no = await ask('n');
    expect(no.code).toBe(0);
    expect(no.screen()).toContain('nothing was forgotten');
    expect(commands(historyJson())).toContain('make test');
    const yes = await ask('y');
    expect(yes.code).toBe(0);
    expect(yes.screen()).toContain('forgot 1 record');
    expect(commands(historyJson())).not.toContain('make test');
  });
});

describe('tandem history import and stats', () => {
  it('imports the shells it finds, says what per source, stores nothing twice, and counts it in stats', () => {
    copyFileSync(join(FIXTURES, 'zsh_history'), join(home, '.zsh_history'));
    mkdirSync(join(home, '.local/share/fish'), { recursive: true });
    copyFileSync(join(FIXTURES, 'fish_history'), join(home, '.local/share/fish/fish_history'));
    const first = history('import');
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(
      [
        `zsh    ${join(home, '.zsh_history')}: 7 imported, 2 entries skipped (the first at line 8)`,
        `fish   ${join(home, '.local/share/fish/fish_history')}: 6 imported, 2 entries skipped (the first at line 12)`,
        '',
      ].join('\n'),
    );
    expect(history('import', 'zsh').stdout).toBe(`zsh    ${join(home, '.zsh_history')}: 0 imported, 7 already there, 2 entries skipped (the first at line 8)\n`);
    expect(historyJson('for', '--since', '2023-11-14')).toEqual([
      expect.objectContaining({ command: 'for i in 1 2; do\n  echo $i\ndone', shell: 'zsh', duration_ms: 1000, started_at: '2023-11-14T22:14:00.000Z' }),
      expect.objectContaining({ command: 'for x in 1 2\necho $x\nend', shell: 'fish', imported: true, exit_code: null, started_at: '2023-11-14T22:13:40.000Z' }),
    ]);
    const stats = history('stats', '--json');
    expect(stats.code).toBe(0);
    expect(JSON.parse(stats.stdout)).toMatchObject({ file: tandemPaths(env).historyFile, records: 4 + 13, imported: 13, by_author: { you: 16, 'agent-step': 1 } });
    expect(history('stats').stdout).toMatch(/^records {3}17 \(13 imported\)\nby {8}you 16, agent-step 1\n/);
  });

  it('imports a file named on the command line; a missing one exits 1 with the reason', () => {
    const file = join(home, 'saved-history');
    copyFileSync(join(FIXTURES, 'bash_history_timestamped'), file);
    expect(history('import', 'bash', 'saved-history')).toMatchObject({ code: 0, stdout: `bash   ${file}: 5 imported, 2 entries skipped (the first at line 10)\n` });
    expect(history('import', 'fish', 'no-such-file')).toEqual({ code: 1, stdout: '', stderr: `tandem: fish   ${join(home, 'no-such-file')}: not imported: there is no file ${join(home, 'no-such-file')}\n` });
    expect(history('import')).toMatchObject({ code: 1, stdout: '', stderr: expect.stringContaining('tandem: no shell history found to import (looked for') });
  });
});

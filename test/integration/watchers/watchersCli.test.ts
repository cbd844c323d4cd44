import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ptyModule from 'node-pty';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { waitUntil } from '../../support/waitUntil';
import type { WatchersView } from '../../../src/shared/watchers';
import type { BlockRecord } from '../../../src/main/history/historyRecord';
import { HistoryStore } from '../../../src/main/history/historyStore';
import { tandemPaths } from '../../../src/main/settings/paths';
import { TANDEM_BIN } from '../../support/agentCli';

// `tandem watchers …` as a user runs it: the built CLI in a home of its own.
let root: string;
let home: string;
let project: string;

beforeAll(() => {
  if (!existsSync(join(__dirname, '../../../out/main/cli.js'))) throw new Error('tandem watchers tests run the built CLI: run `npm run build` first.');
});
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'tandem-watchers-cli-'));
  home = join(root, 'home');
  project = join(home, 'proj');
  mkdirSync(join(home, '.config', 'tandem'), { recursive: true });
  mkdirSync(join(project, '.tandem'), { recursive: true });
  mkdirSync(join(project, 'src'));
  execFileSync('git', ['init', '-q'], { cwd: project });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function tandem(args: string[], input?: string) {
  const result = spawnSync(process.execPath, [TANDEM_BIN, 'watchers', ...args], {
    cwd: project,
    env: { HOME: home, PATH: process.env.PATH, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local', 'share'), TZ: 'UTC' },
    encoding: 'utf8',
    input,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const USER_FILE = `
[[watcher]]
name = "morning"
trigger = "schedule"
cron = "0 9 * * 1-5"
timezone = "UTC"
action = "auto"
instruction = "# summarise overnight alerts"

[[watcher]]
name = "failures"
trigger = "block"
command = "npm test*"
instruction = "explain the first failure"

[[watcher]]
name = "slack"
trigger = "screen_change"
app = "Slack"
pattern = "urgent"
instruction = "summarise it"
`;

const PROJECT_FILE = `[[watcher]]\nname = "sources"\ntrigger = "file_change"\npath = ["src/**/*.ts", "test/**"]\ninstruction = "# run the tests"\n`;

describe('tandem watchers', () => {
  it('list shows each file and watcher: trigger in words, the next scheduled run, what is not active, an untrusted project', () => {
    writeFileSync(join(home, '.config', 'tandem', 'watchers.toml'), USER_FILE);
    writeFileSync(join(project, '.tandem', 'watchers.toml'), PROJECT_FILE);
    const run = tandem(['list']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('~/.config/tandem/watchers.toml (user)');
    expect(run.stdout).toMatch(/morning · schedule · cron "0 9 \* \* 1-5" \(UTC\) · auto · next \w{3} \w{3} \d\d \d{4} 09:00/);
    expect(run.stdout).toContain('failures · block · `npm test*` exits with anything but 0 · notify');
    expect(run.stdout).toContain('slack · screen_change · window app "Slack", text matching /urgent/, every 5 s · notify\n');
    expect(run.stdout).toContain('~/proj/.tandem/watchers.toml (project, not allowed: `tandem watchers allow ~/proj` to trust it)');
    expect(run.stdout).toContain('sources · file_change · src/**/*.ts, test/** in ~/proj · notify · not allowed');

    const json = tandem(['list', '--json']);
    const view = JSON.parse(json.stdout) as WatchersView;
    expect(view.files).toEqual([
      { path: join(home, '.config', 'tandem', 'watchers.toml'), source: 'user' },
      { path: join(project, '.tandem', 'watchers.toml'), source: 'project', untrusted: true },
    ]);
    const morning = view.watchers.find((watcher) => watcher.name === 'morning')!;
    expect(new Date(morning.nextRun!).getUTCHours()).toBe(9);
    expect([1, 2, 3, 4, 5]).toContain(new Date(morning.nextRun!).getUTCDay());
  });

  it('list exits 1 naming the file, key and line of a mistake', () => {
    writeFileSync(join(home, '.config', 'tandem', 'watchers.toml'), USER_FILE.replace('0 9 * * 1-5', '0 25 * * *'));
    const run = tandem(['list']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^tandem: ~\/\.config\/tandem\/watchers\.toml: \[\[watcher\]\] #1, cron \(line 5\): .*hour/m);
    expect(run.stdout).toContain('(user, invalid)');
  });

  it('test shows what a watcher would watch: globs and folders, the next 3 runs, the block rule on recent history, the phrase', () => {
    writeFileSync(join(home, '.config', 'tandem', 'watchers.toml'), `${USER_FILE}\n[[watcher]]\nname = "deploy"\ntrigger = "voice"\nphrase = "deploy to staging"\ninstruction = "deploy"\n`);
    writeFileSync(join(project, '.tandem', 'watchers.toml'), PROJECT_FILE);
    const files = tandem(['test', 'sources']);
    expect(files.code).toBe(0);
    expect(files.stdout).toContain('globs        ~/proj/src/**/*.ts, ~/proj/test/**');
    expect(files.stdout).toContain('watches      ~/proj/src\n');
    expect(files.stdout).toContain('watches      ~/proj/test (does not exist: nothing is watched)');
    expect(files.stdout).toContain('what git ignores');
    expect(files.stdout).toContain('not allowed');
    const schedule = tandem(['test', 'morning']);
    expect(schedule.stdout).toMatch(/next runs {4}(\w{3} \w{3} \d\d \d{4} 09:00:00; ){2}\w{3} \w{3} \d\d \d{4} 09:00:00/);
    expect(tandem(['test', 'failures']).stdout).toContain('no block history yet');
    expect(tandem(['test', 'deploy']).stdout).toContain('phrase       "deploy to staging"');
    const missing = tandem(['test', 'nope']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('there is no watcher "nope" (there are: morning, failures, slack, deploy, sources)');
  });

  it('test tries a block rule on the user’s recent commands in the history (not the agent’s)', async () => {
    writeFileSync(join(home, '.config', 'tandem', 'watchers.toml'), USER_FILE);
    const base = { host: 'laptop', shell: 'bash', session: 's', pane: '1', author: 'you' as const, cwd: project };
    const records: BlockRecord[] = [
      { ...base, key: 'a', command: 'npm test', exitCode: 1, startedAt: Date.now() - 4_000 },
      { ...base, key: 'b', command: 'npm test -- --watch', exitCode: 0, startedAt: Date.now() - 3_000 },
      { ...base, key: 'c', command: 'npm test; echo done', exitCode: 1, startedAt: Date.now() - 2_000 },
      { ...base, key: 'd', command: 'npm test src/a.test.ts', exitCode: 1, startedAt: Date.now() - 1_000, author: 'agent-step' },
    ];
    const store = await HistoryStore.open({ file: tandemPaths({ HOME: home, XDG_DATA_HOME: join(home, '.local', 'share') }).historyFile });
    try {
      expect(await store.record(records)).toMatchObject({ ok: true, value: { stored: 4 } });
    } finally {
      store.close();
    }
    const run = tandem(['test', 'failures']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('recent       1 of your last 3 commands would have fired it:\n    npm test (exit 1)\n');
  });

  it('allow trusts the project file as it is (asking, or with --yes); an edit untrusts it; deny forgets', () => {
    writeFileSync(join(project, '.tandem', 'watchers.toml'), PROJECT_FILE);
    // No terminal and no --yes: nothing is allowed.
    const refused = tandem(['allow']);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toContain('sources: file_change, notify: run the tests');
    expect(refused.stderr).toContain('add --yes');
    expect(JSON.parse(tandem(['list', '--json']).stdout).files[1].untrusted).toBe(true);

    const allowed = tandem(['allow', project, '--yes']);
    expect(allowed.code).toBe(0);
    const listed = JSON.parse(tandem(['list', '--json']).stdout) as WatchersView;
    expect(listed.files[1]).toEqual({ path: join(project, '.tandem', 'watchers.toml'), source: 'project' });
    expect(listed.watchers.find((watcher) => watcher.name === 'sources')!.inactive).toBeUndefined();
    const record = join(home, '.local', 'share', 'tandem', 'trusted-watchers.json');
    expect(Object.keys(JSON.parse(readFileSync(record, 'utf8')).files)).toEqual([join(project, '.tandem', 'watchers.toml')]);

    writeFileSync(join(project, '.tandem', 'watchers.toml'), `${PROJECT_FILE}# edited\n`);
    expect(JSON.parse(tandem(['list', '--json']).stdout).files[1].untrusted).toBe(true);

    tandem(['allow', '--yes']);
    expect(JSON.parse(tandem(['list', '--json']).stdout).files[1].untrusted).toBeUndefined();
    expect(tandem(['deny']).stdout).toContain('no longer trusted');
    expect(JSON.parse(tandem(['list', '--json']).stdout).files[1].untrusted).toBe(true);
  });

  it('allow at a terminal asks, and allows only on yes', async () => {
    writeFileSync(join(project, '.tandem', 'watchers.toml'), PROJECT_FILE);
    const ask = async (answer: string) => {
      let output = '';
      const pty = ptyModule.spawn(process.execPath, [TANDEM_BIN, 'watchers', 'allow'], { cols: 120, rows: 30, cwd: project, env: { HOME: home, PATH: process.env.PATH ?? '', XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local', 'share') } });
      pty.onData((data) => (output += data));
      const exit = new Promise<number>((resolve) => pty.onExit(({ exitCode }) => resolve(exitCode)));
      await waitUntil(() => output.includes('[y/N]'), 'the question');
      pty.write(`${answer}\r`);
      return { code: await exit, output: () => output };
    };
    const no = await ask('n');
    expect(no.code).toBe(0);
    expect(no.output()).toContain('nothing was allowed');
    expect(JSON.parse(tandem(['list', '--json']).stdout).files[1].untrusted).toBe(true);
    const yes = await ask('y');
    expect(yes.code).toBe(0);
    expect(yes.output()).toContain('allowed as it is now');
    expect(JSON.parse(tandem(['list', '--json']).stdout).files[1].untrusted).toBeUndefined();
  });

  it('a usage mistake exits 2 with the usage', () => {
    const run = tandem(['frobnicate']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Unknown tandem watchers command "frobnicate"');
    expect(run.stderr).toContain('tandem watchers list [--json] [--dir DIR]');
  });
});

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tandemPaths } from '../../../src/main/settings/paths';
import { EngineClient, startEngine } from '../../support/engineClient';
import { rawDatabaseBytes, recordsWhen, storedRecords } from '../../support/historyRecords';
import { ALNUM, pseudo } from '../../support/pseudoText';
import { makeTestHome, removeTestHome, testHomeEnv } from '../../support/testHome';
import { waitUntil } from '../../support/waitUntil';

// Blocks typed into real bash, zsh and fish panes end up in the history database, as the
// recorder writes them after each block ends: scrubbed, batched, without what must not be kept.

const { Database } = createRequire(import.meta.url)('node-sqlite3-wasm') as typeof import('node-sqlite3-wasm');

const SECRET = `sk-ant-api03-${pseudo(60, ALNUM + '_-', 29)}`;

const stops: (() => Promise<void>)[] = [];
const homes: string[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
  for (const home of homes.splice(0)) removeTestHome(home);
});

async function open(home: string, configToml?: string) {
  const engine = await startEngine({ home, configToml, historyBatchMs: 50 });
  stops.push(() => engine.stop());
  const client = await EngineClient.connect(engine.server);
  stops.unshift(async () => client.close());
  await client.request('hello', {});
  return { engine, client, history: engine.engine.history };
}

async function paneWith(client: EngineClient, shell: string): Promise<number> {
  const pane = await client.request('pane.create', { cols: 120, rows: 30, shell });
  await client.waitForPrompt(pane.paneId);
  return pane.paneId;
}

/** Types a command and waits for its block (matched by a text it contains: leading blanks are the shell's business). */
const run = (client: EngineClient, paneId: number, command: string) => client.runCommand(paneId, command, { contains: true });

function newHome(): string {
  const home = makeTestHome('tandem-history-rec-');
  homes.push(home);
  return home;
}

describe('recording finished blocks', () => {
  it('stores blocks of a bash and a zsh pane with their fields; skips leading-space and excluded commands; a planted secret never reaches the file', async () => {
    const home = newHome();
    const { engine, client, history } = await open(home, '[history]\nexclude = ["*skip-me*", "/^echo regex-skip/"]\n');
    const bash = await paneWith(client, '/bin/bash');
    const zsh = await paneWith(client, '/usr/bin/zsh');

    const failing = `sh -c 'echo first-line; echo "error: it broke" >&2; echo last-line; exit 3'`;
    await run(client, bash, failing);
    await run(client, bash, ' echo spaced-out');
    await run(client, bash, 'echo skip-me-please');
    await run(client, bash, 'echo regex-skip now');
    await run(client, zsh, ' echo zsh-spaced-out');
    await run(client, zsh, `echo ${SECRET}`);
    await run(client, zsh, 'echo from-zsh');
    await run(client, bash, 'echo sentinel');

    const records = await recordsWhen(history, { limit: 50 }, (found) => ['echo sentinel', 'echo from-zsh'].every((command) => found.some((record) => record.command === command)), 'the last blocks of both panes');
    const commands = records.map((record) => record.command);
    expect(commands.filter((command) => /spaced-out|skip-me|regex-skip/.test(command))).toEqual([]);
    expect(commands).toHaveLength(4);

    const failed = records.find((record) => record.command === failing)!;
    expect(failed).toMatchObject({ cwd: home, host: hostname(), shell: 'bash', exitCode: 3, author: 'you', decision: null, output: null, imported: false });
    expect(failed.endedAt! - failed.startedAt).toBe(failed.durationMs);
    expect(failed.outputDigest).toContain('first-line');
    expect(failed.outputDigest).toContain('error: it broke');
    expect(failed.outputDigest).toContain('last-line');

    const fromZsh = records.find((record) => record.command === 'echo from-zsh')!;
    expect(fromZsh).toMatchObject({ shell: 'zsh', exitCode: 0, author: 'you', cwd: home });
    // Two panes of one engine: one session, told apart by the pane.
    expect(fromZsh.session).toBe(failed.session);
    expect(new Set([fromZsh.pane, failed.pane]).size).toBe(2);

    const secretRecord = records.find((record) => record.command.startsWith('echo [REDACTED'))!;
    expect(secretRecord.outputDigest).toContain('[REDACTED');
    expect(JSON.stringify(records)).not.toContain(SECRET);

    await engine.stop();
    stops.length = 0;
    const file = tandemPaths(testHomeEnv(home)).historyFile;
    const bytes = rawDatabaseBytes(file);
    expect(bytes.length).toBeGreaterThan(0);
    for (const kept of ['echo sentinel', 'first-line']) expect(bytes.includes(kept)).toBe(true);
    for (const never of [SECRET, SECRET.slice(-30), 'skip-me-please', 'spaced-out', 'regex-skip']) expect(bytes.includes(never)).toBe(false);
  }, 120_000);

  it('a fish pane in private mode stores nothing; what was stored is there after a restart', async () => {
    const home = newHome();
    const first = await open(home, '[history]\nkeep_output = "full"\n');
    const fish = await paneWith(first.client, '/usr/bin/fish');
    await run(first.client, fish, 'echo before-private');
    expect(await first.client.request('pane.private', { paneId: fish, on: true })).toEqual({ private: true });
    await first.client.waitFor(() => first.client.eventsOf('pane.private').find((event) => event.paneId === fish && event.private), 5_000, 'the private-mode event');
    await run(first.client, fish, 'echo while-private');
    await first.client.request('pane.private', { paneId: fish, on: false });
    await run(first.client, fish, ' echo fish-spaced-out');
    await run(first.client, fish, 'echo after-private');
    const records = await recordsWhen(first.history, {}, (found) => found.some((record) => record.command === 'echo after-private'), 'the block after private mode');
    expect(records.map((record) => record.command).sort()).toEqual(['echo after-private', 'echo before-private']);
    const before = records.find((record) => record.command === 'echo before-private')!;
    expect(before).toMatchObject({ shell: 'fish', exitCode: 0 });
    // keep_output = "full": the output itself, beside the digest.
    expect(before.output).toContain('before-private');
    await first.engine.stop();
    stops.length = 0;
    expect(rawDatabaseBytes(tandemPaths(testHomeEnv(home)).historyFile).includes('while-private')).toBe(false);

    const second = await open(home);
    const bash = await paneWith(second.client, '/bin/bash');
    await run(second.client, bash, 'echo after-restart');
    const all = await recordsWhen(second.history, {}, (found) => found.some((record) => record.command === 'echo after-restart'), 'the block after the restart');
    expect(all.map((record) => record.command).sort()).toEqual(['echo after-private', 'echo after-restart', 'echo before-private']);
    // Another run of the engine, another session.
    expect(all.find((record) => record.command === 'echo after-restart')!.session).not.toBe(before.session);
    await second.engine.stop();
    stops.length = 0;
    expect(storedRecords(tandemPaths(testHomeEnv(home)).historyFile)).toHaveLength(3);
  }, 120_000);

  it('applies [history] changes made in config.toml while it runs: enabled = false keeps nothing, keep_output = "none" no output', async () => {
    const home = newHome();
    const { client, history } = await open(home, '[history]\n');
    const bash = await paneWith(client, '/bin/bash');
    const config = join(home, '.config/tandem/config.toml');
    const changed = async (toml: string, enabled: boolean) => {
      const before = client.eventsOf('settings.changed').length;
      writeFileSync(config, toml);
      await client.waitFor(() => client.eventsOf('settings.changed').slice(before).some((change) => change.settings.history.enabled === enabled && !change.error), 15_000, 'the settings change');
    };
    await changed('[history]\nenabled = false\n', false);
    await run(client, bash, 'echo while-disabled');
    await changed('[history]\nkeep_output = "none"\n', true);
    await run(client, bash, 'echo enabled-again');
    const records = await recordsWhen(history, {}, (found) => found.some((record) => record.command === 'echo enabled-again'), 'the block after enabling');
    expect(records.map((record) => [record.command, record.outputDigest, record.output])).toEqual([['echo enabled-again', null, null]]);
  }, 120_000);

  it('records the git repository and branch of the folder each block ran in', async () => {
    const home = newHome();
    const repo = join(home, 'projects', 'app');
    mkdirSync(join(repo, 'src'), { recursive: true });
    for (const args of [['init', '-q'], ['checkout', '-q', '-b', 'feature/search']]) execFileSync('git', args, { cwd: repo, env: { ...process.env, HOME: home } });
    const { client, history } = await open(home);
    const bash = await paneWith(client, '/bin/bash');
    await run(client, bash, `cd ${join(repo, 'src')}`);
    await run(client, bash, 'echo inside-the-repo');
    await run(client, bash, 'cd /');
    await run(client, bash, 'echo outside-any-repo');
    const records = await recordsWhen(history, {}, (found) => found.some((record) => record.command === 'echo outside-any-repo'), 'the block outside the repository');
    const inside = records.find((record) => record.command === 'echo inside-the-repo');
    expect(inside).toMatchObject({ cwd: join(repo, 'src'), repoRoot: repo, gitBranch: 'feature/search' });
    expect(records.find((record) => record.command === 'echo outside-any-repo')).toMatchObject({ cwd: '/', repoRoot: null, gitBranch: null });
    // The overlay's "this repo" filter.
    const inRepo = await history.search({ repo });
    expect(inRepo.ok && inRepo.value.map((record) => record.command)).toEqual(['cd /', 'echo inside-the-repo']);
  }, 120_000);

  it('a database it cannot use is said once in the engine log; the panes go on', async () => {
    const home = newHome();
    const file = tandemPaths(testHomeEnv(home)).historyFile;
    mkdirSync(dirname(file), { recursive: true });
    const future = new Database(file);
    future.exec('CREATE TABLE future (x); PRAGMA user_version = 99;');
    future.close();
    const { engine, client } = await open(home);
    const bash = await paneWith(client, '/bin/bash');
    const log = tandemPaths(testHomeEnv(home)).logFile;
    const historyLines = () => (existsSync(log) ? readFileSync(log, 'utf8') : '').split('\n').filter((line) => line.includes('"area":"history"') && line.includes('could not be written'));
    await run(client, bash, 'echo one');
    await waitUntil(() => historyLines().length > 0, 'the engine log line');
    // Later batches fail the same way: not said again.
    await run(client, bash, 'echo two');
    await run(client, bash, 'echo three');
    await engine.stop();
    stops.length = 0;
    expect(historyLines()).toHaveLength(1);
    expect(historyLines()[0]).toMatch(/newer Tandem/);
    expect(client.textOf(bash)).toContain('three');
  }, 120_000);
});

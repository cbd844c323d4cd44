import { mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HistoryRequestSchemas, HISTORY_AUTHORS } from '../../../src/shared/history';
import { AUTHORS, searchQuerySchema } from '../../../src/main/history/historyRecord';
import { EngineClient, startEngine } from '../../support/engineClient';
import { repositoryWithCommits } from '../../support/gitRepository';
import { shellTimeout } from '../../support/shellTimeout';
import { makeTestHome, removeTestHome } from '../../support/testHome';
import type { Params } from '../../../src/shared/protocol';

// The history search overlay's engine requests, over the real WebSocket transport, against
// blocks typed into a real bash: search (with the block a record came from), the commands
// around a record, forget, the pane's scope for the chips, and the errors the overlay shows.

const stops: (() => Promise<void>)[] = [];
const homes: string[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
  for (const home of homes.splice(0)) removeTestHome(home);
});

function newHome(): string {
  const home = makeTestHome('tandem-history-overlay-');
  homes.push(home);
  return home;
}

async function open(home: string, historyBatchMs = 20) {
  const engine = await startEngine({ home, historyBatchMs });
  stops.push(() => engine.stop());
  const client = await EngineClient.connect(engine.server);
  stops.unshift(async () => client.close());
  await client.request('hello', {});
  return { engine, client };
}

async function bashPane(client: EngineClient, cwd?: string): Promise<number> {
  const pane = await client.request('pane.create', { cols: 120, rows: 30, shell: '/bin/bash', cwd });
  await client.waitForPrompt(pane.paneId);
  return pane.paneId;
}

const run = (client: EngineClient, paneId: number, command: string) => client.runCommand(paneId, command);

/** Searches until the records the test needs were written (the recorder batches them after blocks end). */
async function searchUntil(client: EngineClient, params: Params<'history.search'>, done: (commands: string[]) => boolean) {
  const until = Date.now() + shellTimeout(20_000);
  for (;;) {
    const { records } = await client.request('history.search', params);
    const commands = records.map((record) => record.command);
    if (done(commands)) return records;
    if (Date.now() > until) throw new Error(`the search never found what was wanted; last: ${JSON.stringify(commands)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('history requests of the search overlay', () => {
  it('search finds commands with the block they came from, filters to failed ones, shows the commands around one and forgets one', async () => {
    const { client } = await open(newHome());
    const paneId = await bashPane(client);
    const first = await run(client, paneId, 'echo overlay-first');
    const failing = await run(client, paneId, "sh -c 'echo overlay-broke >&2; exit 4'");
    await run(client, paneId, 'echo overlay-third');

    const records = await searchUntil(client, { query: 'overlay' }, (commands) => commands.includes('echo overlay-third'));
    const broke = records.find((record) => record.command === failing.command)!;
    expect(broke).toMatchObject({ exitCode: 4, author: 'you', imported: false, host: hostname(), shell: 'bash', blockId: failing.id, digestCut: false });
    expect(broke.outputDigest).toContain('overlay-broke');
    // Only what the overlay shows travels: never the full output.
    expect(Object.keys(broke)).not.toContain('output');

    const failed = await client.request('history.search', { query: 'overlay', failed: true });
    expect(failed.records.map((record) => record.command)).toEqual([failing.command]);

    const around = await client.request('history.neighbours', { id: broke.id, count: 5 });
    expect(around.records.map((record) => record.command)).toEqual(['echo overlay-first', failing.command, 'echo overlay-third']);
    expect(around.records[0]!.blockId).toBe(first.id);

    expect(await client.request('history.forget', { ids: [broke.id] })).toEqual({ forgotten: 1 });
    const after = await client.request('history.search', { query: 'overlay' });
    expect(after.records.map((record) => record.command)).not.toContain(failing.command);
    await expect(client.request('history.neighbours', { id: broke.id, count: 5 })).rejects.toThrow(/no longer in the history/);
  });

  it('a command run several times shows once with its run count, and forgetting it by command deletes every run', async () => {
    const { client } = await open(newHome());
    const paneId = await bashPane(client);
    for (let i = 0; i < 3; i++) await run(client, paneId, 'echo thrice-run');
    await run(client, paneId, 'echo thrice-run-not');

    const records = await searchUntil(client, { query: 'thrice-run' }, (commands) => commands.includes('echo thrice-run-not'));
    expect(records.filter((record) => record.command === 'echo thrice-run')).toEqual([expect.objectContaining({ runs: 3 })]);

    expect(await client.request('history.forget', { command: 'echo thrice-run' })).toEqual({ forgotten: 3 });
    const after = await client.request('history.search', { query: 'thrice-run' });
    expect(after.records.map((record) => record.command)).toEqual(['echo thrice-run-not']);
  });

  it('finds a command that finished a moment ago, before the recorder would have written its batch', async () => {
    const { client } = await open(newHome(), 600_000);
    const paneId = await bashPane(client);
    await run(client, paneId, 'echo just-finished');
    const { records } = await client.request('history.search', { query: 'just-fin' });
    expect(records.map((record) => record.command)).toEqual(['echo just-finished']);
  });

  it("scope: the pane's directory, this host, and the repository root only inside a git work tree", async () => {
    const home = newHome();
    const repo = join(home, 'work/project');
    repositoryWithCommits(repo, 1);
    mkdirSync(join(repo, 'src/deep'), { recursive: true });
    const { client } = await open(home);
    const inRepo = await bashPane(client, join(repo, 'src/deep'));
    expect(await client.request('history.scope', { paneId: inRepo })).toEqual({ cwd: join(repo, 'src/deep'), host: hostname(), repoRoot: repo });

    const outside = await bashPane(client, home);
    const scope = await client.request('history.scope', { paneId: outside });
    expect(scope.repoRoot).toBeNull();
    expect(scope.repoUnknown).toBe(`${home} is not in a git repository`);
    await expect(client.request('history.scope', { paneId: 999 })).rejects.toThrow(/There is no pane 999/);
  });

  it('bad arguments get a clear error; a history database that cannot be opened says so instead of finding nothing', async () => {
    const home = newHome();
    // A directory where the database file should be: the store cannot open it.
    mkdirSync(join(home, '.local/share/tandem/history.sqlite'), { recursive: true });
    const { client } = await open(home);
    await expect(client.request('history.search', { limit: 0 } as never)).rejects.toThrow(/Invalid history.search request/);
    await expect(client.request('history.forget', { ids: [] })).rejects.toThrow(/Invalid history.forget request/);
    await expect(client.request('history.search', { query: 'anything' })).rejects.toThrow(/The history could not search: .*history\.sqlite could not be opened/);
  });
});

describe('the overlay contract mirrors the store', () => {
  it('has the same authors, and every overlay search is a valid store query', () => {
    expect([...HISTORY_AUTHORS]).toEqual([...AUTHORS]);
    const overlayKeys = Object.keys(HistoryRequestSchemas['history.search'].shape);
    const storeKeys = Object.keys(searchQuerySchema.shape);
    expect(overlayKeys.filter((key) => !storeKeys.includes(key))).toEqual([]);
  });
});

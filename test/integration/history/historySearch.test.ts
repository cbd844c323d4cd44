import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { BlockRecord, HistoryResult } from '../../../src/main/history/historyRecord';
import { HistoryStore } from '../../../src/main/history/historyStore';

let dir: string;
let store: HistoryStore;

const HOUR = 3_600_000;
const base = { host: 'laptop', author: 'you' as const };
const records: BlockRecord[] = [
  { ...base, key: 'r1', command: 'kubectl logs -f web', cwd: '/srv/app', repoRoot: '/srv/app', session: 's1', startedAt: 1 * HOUR, exitCode: 0 },
  { ...base, key: 'r2', command: 'ls -la', cwd: '/srv/app', session: 's1', startedAt: 2 * HOUR, exitCode: 0 },
  { ...base, key: 'r3', command: 'npm run build', cwd: '/srv/app/web', repoRoot: '/srv/app', session: 's1', startedAt: 3 * HOUR, exitCode: 2, outputDigest: 'error TS2322: Type string' },
  { ...base, key: 'r4', command: 'false', cwd: '/tmp', session: 's2', startedAt: 4 * HOUR, exitCode: 1, host: 'server' },
  { ...base, key: 'r5', command: 'echo "hi" > my_x.txt', cwd: '/tmp', session: 's1', startedAt: 5 * HOUR, author: 'agent-step', decision: 'approved', rule: 'yellow: writes a file' },
  { ...base, key: 'r6', command: 'cat abx 100%', cwd: '/tmp', session: 's1', startedAt: 6 * HOUR, exitCode: 0 },
  // Imported later, but it ran long before the others: recency is when it ran.
  { ...base, key: 'r0', command: 'KUBECTL get pods', session: null, startedAt: 0, imported: true },
];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tandem-history-search-'));
  store = await HistoryStore.open({ file: join(dir, 'history.sqlite') });
  expect(await store.record(records)).toEqual({ ok: true, value: { stored: records.length, duplicates: 0, rejected: [] } });
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

function commands(result: HistoryResult<{ command: string }[]>): string[] {
  if (!result.ok) throw new Error(result.error);
  return result.value.map((record) => record.command);
}

it('finds a substring anywhere in the command, case-insensitively, newest first', async () => {
  expect(commands(await store.search({ query: 'ctl lo' }))).toEqual(['kubectl logs -f web']);
  expect(commands(await store.search({ query: 'kubectl' }))).toEqual(['kubectl logs -f web', 'KUBECTL get pods']);
  expect(commands(await store.search({ query: 'run bui' }))).toEqual(['npm run build']);
  expect(commands(await store.search({ query: 'nothing like this' }))).toEqual([]);
});

it('finds one- and two-character text by scanning, with LIKE wildcards taken literally', async () => {
  expect(commands(await store.search({ query: 'ls' }))).toEqual(['false', 'ls -la']);
  expect(commands(await store.search({ query: '_x' }))).toEqual(['echo "hi" > my_x.txt']);
  expect(commands(await store.search({ query: '0%' }))).toEqual(['cat abx 100%']);
  expect(commands(await store.search({ query: '%' }))).toEqual(['cat abx 100%']);
});

it('takes quotes and FTS operators in the text as text', async () => {
  expect(commands(await store.search({ query: '"hi"' }))).toEqual(['echo "hi" > my_x.txt']);
  expect(commands(await store.search({ query: 'logs OR pods' }))).toEqual([]);
  expect(commands(await store.search({ query: '-f w' }))).toEqual(['kubectl logs -f web']);
});

it('searches the output digest only when asked to', async () => {
  expect(commands(await store.search({ query: 'TS2322' }))).toEqual([]);
  expect(commands(await store.search({ query: 'TS2322', fields: 'all' }))).toEqual(['npm run build']);
});

it('narrows by failed, directory, repo, host, author, session and time, and limits', async () => {
  expect(commands(await store.search({ failed: true }))).toEqual(['false', 'npm run build']);
  expect(commands(await store.search({ cwd: '/srv/app' }))).toEqual(['ls -la', 'kubectl logs -f web']);
  expect(commands(await store.search({ repo: '/srv/app' }))).toEqual(['npm run build', 'kubectl logs -f web']);
  expect(commands(await store.search({ host: 'server' }))).toEqual(['false']);
  expect(commands(await store.search({ author: 'agent-step' }))).toEqual(['echo "hi" > my_x.txt']);
  expect(commands(await store.search({ session: 's2' }))).toEqual(['false']);
  expect(commands(await store.search({ since: 2 * HOUR, until: 4 * HOUR }))).toEqual(['false', 'npm run build', 'ls -la']);
  expect(commands(await store.search({ limit: 2 }))).toEqual(['cat abx 100%', 'echo "hi" > my_x.txt']);
  expect(commands(await store.search({ query: 'l', failed: true, cwd: '/tmp' }))).toEqual(['false']);
});

it('returns every field of a record as it was written', async () => {
  const result = await store.search({ author: 'agent-step' });
  expect(result).toEqual({
    ok: true,
    value: [
      expect.objectContaining({
        command: 'echo "hi" > my_x.txt',
        cwd: '/tmp',
        host: 'laptop',
        session: 's1',
        startedAt: 5 * HOUR,
        exitCode: null,
        author: 'agent-step',
        decision: 'approved',
        rule: 'yellow: writes a file',
        imported: false,
        output: null,
      }),
    ],
  });
  expect(await store.search({ query: 'get pods' })).toMatchObject({ ok: true, value: [{ command: 'KUBECTL get pods', imported: true, session: null }] });
});

it('ranks imported history, recorded after everything else, by when it ran', async () => {
  const imported: BlockRecord[] = [
    { ...base, command: 'kubectl apply -f old.yaml', startedAt: HOUR / 2, imported: true },
    { ...base, command: 'kubectl version', startedAt: HOUR / 4, imported: true },
  ];
  expect(await store.record(imported)).toMatchObject({ ok: true, value: { stored: 2 } });
  expect(commands(await store.search({ query: 'kubectl' }))).toEqual(['kubectl logs -f web', 'kubectl apply -f old.yaml', 'kubectl version', 'KUBECTL get pods']);
  expect(commands(await store.search({ query: 'kubectl', limit: 1 }))).toEqual(['kubectl logs -f web']);
  expect(commands(await store.search({ limit: 3 }))).toEqual(['cat abx 100%', 'echo "hi" > my_x.txt', 'false']);
});

it('shows the commands around a record in its own session, oldest first', async () => {
  const build = await store.search({ query: 'npm run' });
  const id = build.ok ? build.value[0]!.id : 0;
  expect(commands(await store.neighbours(id, 1))).toEqual(['ls -la', 'npm run build', 'echo "hi" > my_x.txt']);
  expect(commands(await store.neighbours(id, 10))).toEqual(['kubectl logs -f web', 'ls -la', 'npm run build', 'echo "hi" > my_x.txt', 'cat abx 100%']);
  expect(await store.neighbours(999_999, 3)).toEqual({ ok: true, value: [] });
});

it('forgets records by id or by search, and refuses to forget everything at once', async () => {
  const pods = await store.search({ query: 'pods' });
  expect(await store.forget({ ids: pods.ok ? pods.value.map((record) => record.id) : [] })).toEqual({ ok: true, value: 1 });
  expect(await store.forget({ query: { cwd: '/tmp' } })).toEqual({ ok: true, value: 3 });
  expect(commands(await store.search({}))).toEqual(['npm run build', 'ls -la', 'kubectl logs -f web']);
  expect(await store.forget({ query: { query: 'ctl lo' } })).toEqual({ ok: true, value: 1 });
  expect(await store.forget({ query: { query: 'l', cwd: '/srv/app' } })).toEqual({ ok: true, value: 1 });
  expect(commands(await store.search({}))).toEqual(['npm run build']);
  const everything = await store.forget({ query: {} });
  expect(everything).toEqual({ ok: false, error: expect.stringMatching(/never deletes the whole history/) });
  expect(commands(await store.search({ query: 'npm' }))).toEqual(['npm run build']);
});

it('stores the good records of a batch, names the bad ones, and stores a key only once', async () => {
  const result = await store.record([
    { ...base, command: 'echo good', startedAt: 7 * HOUR },
    { ...base, command: '', startedAt: 7 * HOUR },
    { ...base, command: 'echo bad author', startedAt: 7 * HOUR, author: 'robot' as never },
    { ...base, key: 'r1', command: 'kubectl logs -f web', startedAt: 1 * HOUR },
    { ...base, command: 'echo from a newer Tandem', startedAt: 7 * HOUR, fieldFromTheFuture: 1 } as BlockRecord,
  ]);
  expect(result).toEqual({
    ok: true,
    value: {
      stored: 2,
      duplicates: 1,
      rejected: [
        { index: 1, reason: expect.stringMatching(/^command: /) },
        { index: 2, reason: expect.stringMatching(/^author: /) },
      ],
    },
  });
  expect(commands(await store.search({ query: 'echo' }))).toEqual(['echo from a newer Tandem', 'echo good', 'echo "hi" > my_x.txt']);
});

it('answers bad requests with a clear error instead of throwing', async () => {
  expect(await store.search({ limit: -1 })).toEqual({ ok: false, error: expect.stringMatching(/^bad search: limit: /) });
  expect(await store.search({ color: 'red' } as never)).toEqual({ ok: false, error: expect.stringMatching(/^bad search: .*color/) });
  expect(await store.record('ls' as never)).toEqual({ ok: false, error: 'record needs an array of block records' });
  const tooMany = Array.from({ length: 1001 }, (_, i) => ({ ...base, command: `echo ${i}`, startedAt: i }));
  expect(await store.record(tooMany)).toEqual({ ok: false, error: 'record takes at most 1000 records at once; got 1001' });
  expect(await store.neighbours(1.5, 2)).toEqual({ ok: false, error: expect.stringMatching(/^bad neighbours request: id: /) });
  expect(await store.neighbours(1, 0)).toEqual({ ok: false, error: expect.stringMatching(/^bad neighbours request: count: /) });
  expect(await store.forget({ ids: [] })).toEqual({ ok: false, error: expect.stringMatching(/^bad forget request/) });
  expect(await store.stats()).toMatchObject({ ok: true, value: { records: records.length, imported: 1, byAuthor: { you: 6, 'agent-step': 1 } } });
});

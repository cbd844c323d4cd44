import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { HistoryDatabase } from '../../../src/main/history/historyDatabase';
import type { BlockRecord } from '../../../src/main/history/historyRecord';
import { HistoryStore, type HistoryStoreOptions } from '../../../src/main/history/historyStore';
import { killLeftovers, startHistoryProcess, type HistoryChild } from '../../support/historyChild';
import { waitUntil } from '../../support/waitUntil';

let dir: string;
let file: string;
const stores: HistoryStore[] = [];
const children: HistoryChild[] = [];
let reports: string[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tandem-history-thread-'));
  file = join(dir, 'history.sqlite');
  reports = [];
});
afterEach(async () => {
  killLeftovers(children.splice(0));
  await Promise.all(stores.splice(0).map((store) => store.close()));
  rmSync(dir, { recursive: true, force: true });
});

async function open(options: Partial<HistoryStoreOptions> = {}): Promise<HistoryStore> {
  // This test's reports: a store of an earlier test that is still closing reports to its own.
  const mine = reports;
  const store = await HistoryStore.open({ file, ownerIn: 'worker', report: (message) => mine.push(message), ...options });
  stores.push(store);
  return store;
}

const block = (command: string, extra: Partial<BlockRecord> = {}): BlockRecord => ({ command, host: 'h', startedAt: Date.now(), author: 'you', ...extra });

it('runs the database in a worker thread of the owning process, which serves this process by message and others by socket', async () => {
  const owner = await open();
  expect(owner.isOwner).toBe(true);
  const worker = owner.ownerWorker!;
  expect(worker.threadId).not.toBe(threadId);
  const client = await open();
  expect([client.isOwner, client.ownerWorker]).toEqual([false, undefined]);
  expect(await client.record([block('echo from a client')])).toMatchObject({ ok: true, value: { stored: 1 } });
  expect(await owner.record([block('echo from the owner')])).toMatchObject({ ok: true, value: { stored: 1 } });
  const found = await owner.search({ query: 'echo from', rank: 'relevance' });
  expect(found.ok && found.value.map((record) => record.command).sort()).toEqual(['echo from a client', 'echo from the owner']);
  expect(await owner.search({ query: 'x', limit: -1 })).toEqual({ ok: false, error: expect.stringMatching(/^bad search: limit/) });
});

it('close ends the thread after closing the file, and the next owner takes the database at once', async () => {
  const first = await open();
  const second = await open();
  expect(await first.record([block('echo kept')])).toMatchObject({ ok: true });
  const worker = first.ownerWorker!;
  const exited = once(worker, 'exit');
  await first.close();
  await exited;
  expect(await second.search({ query: 'echo kept' })).toMatchObject({ ok: true, value: [{ command: 'echo kept' }] });
  expect(second.isOwner).toBe(true);
  // Closed cleanly: no write-ahead log left for the next opener to check.
  await second.close();
  const db = HistoryDatabase.open(file, (message) => reports.push(message));
  expect(db.integrity()).toEqual({ database: 'ok', searchIndex: 'ok' });
  db.close();
  expect(reports).toEqual([]);
});

it('a crashed owner thread is reported and replaced, and the calls it had not answered are stored once', async () => {
  const store = await open();
  const crashed = store.ownerWorker!;
  const calls = Array.from({ length: 40 }, (_, i) => store.record([block(`echo queued ${i}`, { key: `queued-${i}` })]));
  // Killed with the calls sent and (some of them) unanswered.
  void crashed.terminate();
  const results = await Promise.all(calls);
  expect(results.filter((result) => !result.ok)).toEqual([]);
  expect(reports).toEqual([expect.stringMatching(/^The history owner thread stopped unexpectedly \(it exited \(exit code 1\)\); the database is being taken over again/)]);
  expect(store.isOwner).toBe(true);
  expect(store.ownerWorker).not.toBe(crashed);
  const found = await store.search({ query: 'echo queued', limit: 1000 });
  expect(found.ok && found.value.length).toBe(40);
  expect(found.ok && new Set(found.value.map((record) => record.command)).size).toBe(40);
});

it('a client takes over when the owner thread crashes, and its write in flight is kept', async () => {
  const owner = await open();
  const client = await open();
  const worker = owner.ownerWorker!;
  const write = client.record([block('echo through the crash', { key: 'through' })]);
  void worker.terminate();
  expect(await write).toMatchObject({ ok: true });
  await waitUntil(() => client.isOwner || owner.isOwner, 'a new owner');
  expect(await client.search({ query: 'through the crash' })).toMatchObject({ ok: true, value: [{ command: 'echo through the crash' }] });
});

it('close during a takeover resolves once the takeover has ended: the next opener owns the database at once', async () => {
  const store = await open();
  const worker = store.ownerWorker!;
  const exited = once(worker, 'exit');
  void worker.terminate();
  await exited;
  // The crash started a takeover; close lands in the middle of it.
  await store.close();
  const next = await open();
  expect(next.isOwner).toBe(true);
  expect(await next.record([block('echo after the takeover')])).toMatchObject({ ok: true });
});

it('runs the database in this thread, and says so, when the thread cannot be started', async () => {
  const store = await open({ ownerWorkerLocation: join(dir, 'no-such-worker.mjs') });
  expect([store.isOwner, store.ownerWorker]).toEqual([true, undefined]);
  expect(reports).toEqual([expect.stringMatching(/^the history thread stopped before it could open the database: .*; the history database is run in the engine's own thread instead$/)]);
  expect(await store.record([block('echo anyway')])).toMatchObject({ ok: true, value: { stored: 1 } });
});

it('the thread never keeps a process alive: a process that does not close its store still exits', async () => {
  const child = startHistoryProcess('linger', file);
  children.push(child);
  const [code, signal] = await child.exited;
  expect({ code, signal, lines: child.lines, stderr: child.stderr() }).toEqual({ code: 0, signal: null, lines: ['done true'], stderr: '' });
});

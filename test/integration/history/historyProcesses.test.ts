import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { HistoryDatabase } from '../../../src/main/history/historyDatabase';
import { HistoryStore } from '../../../src/main/history/historyStore';
import { killLeftovers, startHistoryProcess, type HistoryChild } from '../../support/historyChild';
import { waitUntil } from '../../support/waitUntil';

let dir: string;
let file: string;
const children: HistoryChild[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tandem-history-processes-'));
  file = join(dir, 'data', 'history.sqlite');
});
afterEach(() => {
  killLeftovers(children.splice(0));
  rmSync(dir, { recursive: true, force: true });
});

function start(...args: string[]): HistoryChild {
  const child = startHistoryProcess(...args);
  children.push(child);
  return child;
}

async function exitedCleanly(child: HistoryChild): Promise<void> {
  const [code, signal] = await child.exited;
  expect({ code, signal, stderr: child.stderr() }).toEqual({ code: 0, signal: null, stderr: '' });
}

/** Opens the file with nobody else alive, as the next Tandem would, and checks it whole. */
function reopen(): HistoryDatabase {
  const db = HistoryDatabase.open(file, (message) => {
    throw new Error(`unexpected report: ${message}`);
  });
  expect(db.integrity()).toEqual({ database: 'ok', searchIndex: 'ok' });
  return db;
}

function commandsOf(db: HistoryDatabase, session: string): string[] {
  return db.search({ session, limit: 1000 }).map((record) => record.command);
}

it('two processes recording 500 blocks each at the same time lose nothing and store nothing twice', async () => {
  const writers = [start('writer', file, 'A', '500'), start('writer', file, 'B', '500')];
  await waitUntil(() => writers.every((writer) => writer.lines[0]?.startsWith('ready')), 'both writers to be ready');
  // One of them owns the database, the other is its client.
  expect(writers.map((writer) => writer.lines[0]).sort()).toEqual(['ready false', 'ready true']);
  for (const writer of writers) writer.child.stdin!.end('go\n');
  await Promise.all(writers.map(exitedCleanly));
  for (const writer of writers) expect(JSON.parse(writer.lines[1]!)).toMatchObject({ errors: [], stored: 500 });

  const db = reopen();
  try {
    for (const label of ['A', 'B']) {
      const commands = commandsOf(db, label);
      expect(new Set(commands).size).toBe(500);
      expect(commands.length).toBe(500);
    }
  } finally {
    db.close();
  }
});

it('kill -9 of the owner in the middle of a large write leaves a whole database, and a client takes over without losing its write', async () => {
  const bulk = start('bulk', file, '1000');
  await waitUntil(() => bulk.lines.includes('committed 1'), 'the owner to commit its first batch of 1000 large blocks');
  expect(bulk.lines[0]).toBe('owner true');
  const steady = start('steady', file, 'S', '30');
  await waitUntil(() => steady.lines.some((line) => line.startsWith('acked 2 ')), 'the client to have three blocks stored by the owner');
  expect(steady.lines[0]).toBe('ready false');

  // `writing N` is printed (synchronously, to a pipe) just before the batch is handed to the store.
  const writing = bulk.lines.filter((line) => line.startsWith('writing')).length;
  await waitUntil(() => bulk.lines.filter((line) => line.startsWith('writing')).length > writing, 'the owner to start another batch');
  bulk.child.kill('SIGKILL');
  await bulk.exited;
  const confirmed = bulk.lines.filter((line) => line.startsWith('committed')).length;

  await exitedCleanly(steady);
  expect(steady.lines.at(-1)).toBe('acked 29 true');

  const db = reopen();
  try {
    const commands = commandsOf(db, 'S');
    expect(commands.length).toBe(30);
    expect(new Set(commands).size).toBe(30);
    // Batches are transactions: the one being written when the owner died is there whole or not at all.
    const bulkRecords = db.stats().records - 30;
    expect(bulkRecords % 1000).toBe(0);
    expect([confirmed * 1000, (confirmed + 1) * 1000]).toContain(bulkRecords);
  } finally {
    db.close();
  }
});

it('a store whose owner exits hands its calls to the next owner, and another process can own the file afterwards', async () => {
  const first = await HistoryStore.open({ file });
  const second = await HistoryStore.open({ file });
  try {
    expect([first.isOwner, second.isOwner]).toEqual([true, false]);
    expect((await second.record([{ command: 'echo before', host: 'h', startedAt: 1, author: 'you' }])).ok).toBe(true);
    first.close();
    const after = await second.record([{ command: 'echo after', host: 'h', startedAt: 2, author: 'agent-step', decision: 'approved', rule: 'green' }]);
    expect(after).toMatchObject({ ok: true, value: { stored: 1 } });
    expect(second.isOwner).toBe(true);
    const found = await second.search({});
    expect(found.ok && found.value.map((record) => [record.command, record.author, record.rule])).toEqual([
      ['echo after', 'agent-step', 'green'],
      ['echo before', 'you', null],
    ]);
  } finally {
    first.close();
    second.close();
  }
  const writer = start('steady', file, 'later', '1');
  await exitedCleanly(writer);
  expect(writer.lines).toEqual(['ready true', 'acked 0 true']);
});

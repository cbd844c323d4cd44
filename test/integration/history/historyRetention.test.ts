import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { BlockRecord, HistoryStats } from '../../../src/main/history/historyRecord';
import { HistoryStore } from '../../../src/main/history/historyStore';
import { waitUntil } from '../../support/waitUntil';

const DAY = 24 * 60 * 60 * 1000;
let dir: string;
let file: string;
const stores: HistoryStore[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tandem-history-retention-'));
  file = join(dir, 'history.sqlite');
});
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function open(retention?: { maxDays?: number; maxMb?: number }): Promise<HistoryStore> {
  const store = await HistoryStore.open({ file, retention });
  stores.push(store);
  return store;
}

function block(i: number, startedAt: number, size = 0): BlockRecord {
  return { command: `echo block ${i}`, host: 'h', author: 'you', startedAt, outputDigest: size ? `${i} ${'d'.repeat(size)}` : null };
}

/** Asks for stats until they satisfy `done` (retention runs in the background), and returns them. */
async function statsOnce(store: HistoryStore, done: (stats: HistoryStats) => boolean, what: string): Promise<HistoryStats> {
  let latest: HistoryStats | undefined;
  let asking = false;
  await waitUntil(() => {
    if (!asking) {
      asking = true;
      void store.stats().then((result) => {
        if (result.ok) latest = result.value;
        asking = false;
      });
    }
    return latest !== undefined && done(latest);
  }, what);
  return latest!;
}

it('the owner deletes records older than max_days in the background, and keeps the rest', async () => {
  const now = Date.now();
  const writer = await open();
  const old = Array.from({ length: 1200 }, (_, i) => block(i, now - 40 * DAY + i));
  for (let i = 0; i < old.length; i += 600) await writer.record(old.slice(i, i + 600));
  await writer.record([block(9000, now - 2 * DAY), block(9001, now)]);
  writer.close();

  const owner = await open({ maxDays: 30 });
  await statsOnce(owner, (stats) => stats.records === 2, 'retention to delete the 1200 records older than 30 days');
  const kept = await owner.search({});
  expect(kept.ok && kept.value.map((record) => record.command)).toEqual(['echo block 9001', 'echo block 9000']);
});

it('the owner deletes the oldest records until the database fits max_mb', async () => {
  const writer = await open();
  for (let batch = 0; batch < 8; batch++) {
    await writer.record(Array.from({ length: 100 }, (_, i) => block(batch * 100 + i, batch * 100 + i, 2000)));
  }
  const before = await writer.stats();
  expect(before.ok && before.value.bytes).toBeGreaterThan(1.5 * 1024 * 1024);
  writer.close();

  const owner = await open({ maxMb: 0.75 });
  const stats = await statsOnce(owner, (now) => now.bytes <= 0.75 * 1024 * 1024, 'retention to bring the database under 0.75 MB');
  // About 6 kB a record here (digest and its trigrams): most, not all, had to go.
  expect(stats.records).toBeGreaterThan(50);
  expect(stats.records).toBeLessThan(800);
  // The oldest went first: what is left is the newest run of records, without gaps.
  expect(stats.newestStartedAt).toBe(799);
  expect(stats.oldestStartedAt).toBe(800 - stats.records);
});

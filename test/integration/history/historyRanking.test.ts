import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { BlockRecord, HistoryResult, StoredRecord } from '../../../src/main/history/historyRecord';
import { HistoryStore } from '../../../src/main/history/historyStore';

let dir: string;
let file: string;
let store: HistoryStore;

const DAY = 24 * 3_600_000;
const now = 400 * DAY;
const base = { host: 'laptop', author: 'you' as const, session: 's1' };
const records: BlockRecord[] = [
  ...Array.from({ length: 5 }, (_, i) => ({ ...base, command: 'npm test', cwd: '/srv/api', startedAt: now - DAY - i * 60_000, exitCode: i === 4 ? 1 : 0 })),
  { ...base, command: 'npm publish', cwd: '/srv/api', startedAt: now - DAY + 60_000, exitCode: 0 },
  { ...base, command: 'git checkout main', cwd: '/srv/web', startedAt: now - 2 * DAY, exitCode: 0, outputDigest: "Switched to branch 'main'" },
  { ...base, command: 'git commit -m wip', cwd: '/srv/api', startedAt: now - 2 * DAY, exitCode: 0 },
  { ...base, command: 'ls', cwd: '/srv/web', startedAt: now, exitCode: 0 },
];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tandem-history-ranking-'));
  file = join(dir, 'history.sqlite');
  store = await HistoryStore.open({ file });
  expect(await store.record(records)).toMatchObject({ ok: true, value: { stored: records.length } });
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

function ranked(result: HistoryResult<StoredRecord[]>): [string, number | undefined][] {
  if (!result.ok) throw new Error(result.error);
  return result.value.map((record) => [record.command, record.runs]);
}

it('by relevance, gives each command once with its runs, frequent and same-directory commands first', async () => {
  expect(ranked(await store.search({ query: 'npm', rank: 'relevance', match: 'substring' }))).toEqual([
    ['npm test', 5],
    ['npm publish', 1],
  ]);
  // From /srv/web, the checkout run there beats the commit run elsewhere at the same age.
  expect(ranked(await store.search({ query: 'git', rank: 'relevance', from: '/srv/web' }))).toEqual([
    ['git checkout main', 1],
    ['git commit -m wip', 1],
  ]);
  expect(ranked(await store.search({ query: 'git', rank: 'relevance', from: '/srv/api' }))).toEqual([
    ['git commit -m wip', 1],
    ['git checkout main', 1],
  ]);
  // The record is the newest run, with every field read from the database.
  const found = await store.search({ query: 'npm t', rank: 'relevance', failed: true });
  expect(found).toMatchObject({ ok: true, value: [{ command: 'npm test', runs: 1, exitCode: 1, cwd: '/srv/api', startedAt: now - DAY - 4 * 60_000 }] });
});

it('matches fuzzily, by relevance and by recency, with filters', async () => {
  // "co" together at a word's start ("commit") beats c…o ("checkout") at the same age.
  expect(ranked(await store.search({ query: 'gco', match: 'fuzzy', rank: 'relevance' }))).toEqual([
    ['git commit -m wip', 1],
    ['git checkout main', 1],
  ]);
  expect(ranked(await store.search({ query: 'gchm', match: 'fuzzy', rank: 'relevance' }))).toEqual([['git checkout main', 1]]);
  expect(ranked(await store.search({ query: 'gco', match: 'fuzzy', rank: 'relevance', cwd: '/srv/web' }))).toEqual([['git checkout main', 1]]);
  expect(ranked(await store.search({ query: 'np', match: 'fuzzy', limit: 3 }))).toEqual([
    ['npm publish', undefined],
    ['npm test', undefined],
    ['npm test', undefined],
  ]);
  expect(ranked(await store.search({ query: 'zzq', match: 'fuzzy', rank: 'relevance' }))).toEqual([]);
});

it('ranks a digest search by relevance too', async () => {
  expect(ranked(await store.search({ query: 'Switched', fields: 'all', rank: 'relevance' }))).toEqual([['git checkout main', 1]]);
});

it('keeps the index in step with what is recorded and forgotten, and a new owner builds it from the file', async () => {
  expect(ranked(await store.search({ query: 'npm', rank: 'relevance' }))[0]).toEqual(['npm test', 5]);
  expect(await store.record([{ ...base, command: 'npm test', cwd: '/srv/api', startedAt: now + 1, exitCode: 0 }])).toMatchObject({ ok: true, value: { stored: 1 } });
  expect(ranked(await store.search({ query: 'npm', rank: 'relevance' }))[0]).toEqual(['npm test', 6]);
  expect(await store.forget({ query: { query: 'npm test', failed: true } })).toEqual({ ok: true, value: 1 });
  expect(ranked(await store.search({ query: 'npm', rank: 'relevance' }))[0]).toEqual(['npm test', 5]);
  const publish = await store.search({ query: 'npm publish' });
  expect(await store.forget({ ids: [publish.ok ? publish.value[0]!.id : 0] })).toEqual({ ok: true, value: 1 });
  expect(ranked(await store.search({ query: 'npm', rank: 'relevance' }))).toEqual([['npm test', 5]]);

  store.close();
  store = await HistoryStore.open({ file });
  expect(ranked(await store.search({ query: 'npm', rank: 'relevance' }))).toEqual([['npm test', 5]]);
});

it('forgetting a fuzzy search deletes every run it matches fuzzily, and only those', async () => {
  // "gchm" is in no command as a substring: a substring delete would take nothing.
  expect(await store.forget({ query: { query: 'gchm', match: 'fuzzy', rank: 'relevance' } })).toEqual({ ok: true, value: 1 });
  expect(await store.forget({ query: { query: 'ntst', match: 'fuzzy', failed: true } })).toEqual({ ok: true, value: 1 });
  expect(ranked(await store.search({ rank: 'relevance', limit: 10 })).sort()).toEqual([
    ['git commit -m wip', 1],
    ['ls', 1],
    ['npm publish', 1],
    ['npm test', 4],
  ]);
});

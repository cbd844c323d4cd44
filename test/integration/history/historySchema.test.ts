import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { HistoryDatabase } from '../../../src/main/history/historyDatabase';
import { HistoryStore } from '../../../src/main/history/historyStore';
import { MIGRATIONS, SCHEMA_VERSION } from '../../../src/main/history/schema';

const { Database } = createRequire(import.meta.url)('node-sqlite3-wasm') as typeof import('node-sqlite3-wasm');
const v1Fixture = readFileSync(fileURLToPath(new URL('../../fixtures/history/v1.sql', import.meta.url)), 'utf8');

let dir: string;
let file: string;
let reports: string[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tandem-history-schema-'));
  file = join(dir, 'history.sqlite');
  reports = [];
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function withRawDatabase<T>(work: (db: InstanceType<typeof Database>) => T): T {
  const db = new Database(file);
  try {
    return work(db);
  } finally {
    db.close();
  }
}

const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

it('a fresh database gets every migration, WAL with exclusive locking, and passes both integrity checks', () => {
  const db = HistoryDatabase.open(file, (message) => reports.push(message));
  try {
    expect(db.stats()).toMatchObject({ schemaVersion: SCHEMA_VERSION, records: 0 });
    expect(db.integrity()).toEqual({ database: 'ok', searchIndex: 'ok' });
    expect(existsSync(`${file}.lock`)).toBe(true);
  } finally {
    db.close();
  }
  expect(reports).toEqual([]);
  expect(existsSync(`${file}.lock`)).toBe(false);
  withRawDatabase((raw) => {
    raw.exec('PRAGMA locking_mode = EXCLUSIVE');
    expect(raw.get('PRAGMA journal_mode')).toEqual({ journal_mode: 'wal' });
    expect(raw.get('PRAGMA auto_vacuum')).toEqual({ auto_vacuum: 2 });
    const tables = raw.all("SELECT name FROM sqlite_schema WHERE type IN ('table', 'index', 'trigger') AND name NOT LIKE 'sqlite_%' ORDER BY name") as { name: string }[];
    expect(tables.map((row) => row.name)).toEqual(
      expect.arrayContaining(['blocks', 'blocks_fts', 'blocks_recency', 'blocks_cwd', 'blocks_repo', 'blocks_exit_code', 'blocks_fts_insert', 'blocks_fts_delete', 'blocks_fts_update']),
    );
  });
});

it('a version 1 database is upgraded in place: its records are kept and become searchable', async () => {
  withRawDatabase((raw) => raw.exec(v1Fixture));
  const store = await HistoryStore.open({ file, report: (message) => reports.push(message) });
  try {
    const stats = await store.stats();
    expect(stats).toMatchObject({ ok: true, value: { schemaVersion: 2, records: 3, imported: 1 } });
    const found = await store.search({ query: 'gyp' });
    expect(found.ok && found.value.map((record) => [record.command, record.exitCode, record.durationMs, record.cwd])).toEqual([
      ['npm install node-gyp', 1, 2000, '/home/u/app'],
    ]);
    const inDigest = await store.search({ query: 'find Python', fields: 'all' });
    expect(inDigest.ok && inDigest.value.map((record) => record.command)).toEqual(['npm install node-gyp']);
  } finally {
    store.close();
  }
  const db = HistoryDatabase.open(file, (message) => reports.push(message));
  try {
    expect(db.integrity()).toEqual({ database: 'ok', searchIndex: 'ok' });
  } finally {
    db.close();
  }
  expect(reports).toEqual([]);
});

it('a migration that fails leaves the file at the version before it, and says which step failed', () => {
  withRawDatabase((raw) => raw.exec(v1Fixture));
  const broken = [...MIGRATIONS.slice(0, 1), { version: 2, description: 'a step that breaks', sql: 'CREATE TABLE half (x); SELECT no_such_function();' }];
  expect(() => HistoryDatabase.open(file, () => {}, broken)).toThrow(/to version 2 \(a step that breaks\) failed: no such function/);
  withRawDatabase((raw) => {
    raw.exec('PRAGMA locking_mode = EXCLUSIVE');
    expect(raw.get('PRAGMA user_version')).toEqual({ user_version: 1 });
    expect(raw.get("SELECT count(*) AS n FROM sqlite_schema WHERE name = 'half'")).toEqual({ n: 0 });
  });
});

it('a database from a newer Tandem is refused with a clear error and not changed by a single byte', async () => {
  withRawDatabase((raw) => raw.exec('CREATE TABLE future (x); INSERT INTO future VALUES (1); PRAGMA user_version = 99;'));
  const before = sha(file);
  const store = await HistoryStore.open({ file, report: (message) => reports.push(message) });
  try {
    const result = await store.record([{ command: 'ls', host: 'h', startedAt: 1, author: 'you' }]);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatch(/schema version 99, but this Tandem knows versions up to 2.*newer Tandem.*left untouched/);
    expect((await store.search({})).ok).toBe(false);
  } finally {
    store.close();
  }
  expect(reports.join('\n')).toMatch(/newer Tandem/);
  expect(sha(file)).toBe(before);
  expect(readdirSync(dir).sort()).toEqual(['history.sqlite']);
});

it('a file that is not a database is moved aside with a timestamp, reported, and a new history starts', async () => {
  mkdirSync(dir, { recursive: true });
  const garbage = 'this is not SQLite, but somebody may still want it\n'.repeat(200);
  writeFileSync(file, garbage);
  const store = await HistoryStore.open({ file, report: (message) => reports.push(message) });
  try {
    expect(await store.record([{ command: 'echo fresh', host: 'h', startedAt: 1, author: 'you' }])).toMatchObject({ ok: true, value: { stored: 1 } });
  } finally {
    store.close();
  }
  const aside = readdirSync(dir).filter((name) => name.startsWith('history.sqlite.broken-'));
  expect(aside).toHaveLength(1);
  expect(aside[0]).toMatch(/^history\.sqlite\.broken-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/);
  expect(readFileSync(join(dir, aside[0]!), 'utf8')).toBe(garbage);
  expect(reports).toEqual([expect.stringMatching(new RegExp(`could not be read \\(file is not a database\\)\\. It was moved aside to ${join(dir, aside[0]!)}.*nothing was deleted`))]);
});

/** A database of 300 records whose middle pages (table and index pages) are overwritten, header intact. */
function damagedDatabase(): void {
  const db = HistoryDatabase.open(file, () => {});
  db.record(Array.from({ length: 300 }, (_, i) => ({ command: `echo ${i} ${'x'.repeat(200)}`, host: 'h', startedAt: i, author: 'you' })));
  db.close();
  const bytes = readFileSync(file);
  bytes.fill(0xa5, 4096 * 3, bytes.length - 4096);
  writeFileSync(file, bytes);
}

it('after a crash every page is checked, and a damaged database is moved aside, not opened half-broken', () => {
  damagedDatabase();
  // What a killed owner leaves behind.
  mkdirSync(`${file}.lock`);
  const reopened = HistoryDatabase.open(file, (message) => reports.push(message));
  try {
    expect(reopened.stats().records).toBe(0);
    expect(reopened.integrity()).toEqual({ database: 'ok', searchIndex: 'ok' });
  } finally {
    reopened.close();
  }
  expect(reports).toEqual([expect.stringMatching(/could not be read \(.+\)\. It was moved aside/)]);
  expect(readdirSync(dir).filter((name) => name.startsWith('history.sqlite.broken-'))).toHaveLength(1);
});

it('damage found by a query after a clean open is checked, moved aside and reported, and the call still answers', async () => {
  damagedDatabase();
  const store = await HistoryStore.open({ file, report: (message) => reports.push(message) });
  try {
    expect(reports).toEqual([]);
    expect(await store.stats()).toMatchObject({ ok: true, value: { records: 0 } });
    expect(await store.record([{ command: 'echo after the damage', host: 'h', startedAt: 1, author: 'you' }])).toMatchObject({ ok: true, value: { stored: 1 } });
  } finally {
    store.close();
  }
  expect(reports).toEqual([expect.stringMatching(/could not be read \(.+\)\. It was moved aside/)]);
  expect(readdirSync(dir).filter((name) => name.startsWith('history.sqlite.broken-'))).toHaveLength(1);
});

it('a lock directory left by a killed owner does not keep the next owner out', () => {
  mkdirSync(`${file}.lock`, { recursive: true });
  const db = HistoryDatabase.open(file, (message) => reports.push(message));
  try {
    expect(db.record([{ command: 'echo ok', host: 'h', startedAt: 1, author: 'you' }]).stored).toBe(1);
  } finally {
    db.close();
  }
});

it('something else named like the lock directory is left alone, and the database reports itself locked', async () => {
  mkdirSync(join(`${file}.lock`, 'somebody'), { recursive: true });
  writeFileSync(join(`${file}.lock`, 'somebody', 'notes.txt'), 'keep me');
  const store = await HistoryStore.open({ file, report: (message) => reports.push(message) });
  try {
    expect(await store.search({})).toEqual({ ok: false, error: expect.stringMatching(/could not be opened: it is locked by .*history\.sqlite\.lock, which is not an empty lock folder left by Tandem; if no other program uses this database, remove it$/) });
  } finally {
    store.close();
  }
  expect(readFileSync(join(`${file}.lock`, 'somebody', 'notes.txt'), 'utf8')).toBe('keep me');
});

it('a path that is a folder is a clear error, and the folder is not touched', async () => {
  mkdirSync(join(dir, 'folder'));
  writeFileSync(join(dir, 'folder', 'inside.txt'), 'keep me');
  const store = await HistoryStore.open({ file: join(dir, 'folder'), report: (message) => reports.push(message) });
  try {
    expect(await store.record([{ command: 'ls', host: 'h', startedAt: 1, author: 'you' }])).toEqual({ ok: false, error: expect.stringMatching(/could not be opened/) });
  } finally {
    store.close();
  }
  expect(readdirSync(join(dir, 'folder'))).toEqual(['inside.txt']);
  expect(readdirSync(dir).sort()).toEqual(['folder']);
});

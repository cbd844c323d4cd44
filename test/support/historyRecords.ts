import { existsSync, readFileSync } from 'node:fs';
import { HistoryDatabase } from '../../src/main/history/historyDatabase';
import type { SearchQuery, StoredRecord } from '../../src/main/history/historyRecord';
import type { EngineHistory } from '../../src/main/history/recording/engineHistory';
import { shellTimeout } from './shellTimeout';

/** Searches the engine's history until `done` holds for the records found (they are written in batches after blocks end). */
export async function recordsWhen(history: Pick<EngineHistory, 'search'>, query: SearchQuery, done: (records: StoredRecord[]) => boolean, what: string, timeoutMs = 20_000): Promise<StoredRecord[]> {
  const until = Date.now() + shellTimeout(timeoutMs);
  let last: unknown;
  for (;;) {
    const result = await history.search(query);
    if (result.ok && done(result.value)) return result.value;
    last = result.ok ? result.value.map((record) => record.command) : result.error;
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}; last search: ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Every record of a database no process has open (the engine that wrote it has stopped). */
export function storedRecords(file: string): StoredRecord[] {
  const db = HistoryDatabase.open(file, (message) => {
    throw new Error(`unexpected report: ${message}`);
  });
  try {
    return db.search({ limit: 1000 });
  } finally {
    db.close();
  }
}

/** The database file's bytes and its write-ahead log's, as they are on disk. */
export function rawDatabaseBytes(file: string): Buffer {
  return Buffer.concat([file, `${file}-wal`].filter((path) => existsSync(path)).map((path) => readFileSync(path)));
}

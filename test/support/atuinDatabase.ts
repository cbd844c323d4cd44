import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

type SqliteModule = typeof import('node-sqlite3-wasm');
const { Database } = createRequire(import.meta.url)('node-sqlite3-wasm') as SqliteModule;

/** A row of atuin's `history` table; times and durations in nanoseconds, as atuin stores them. */
export interface AtuinRow {
  id: string;
  timestamp: bigint;
  duration: number;
  exit: number;
  command: string;
  cwd: string;
  session: string;
  hostname: string;
  deleted_at?: bigint | null;
  author?: string | null;
  author_kind?: number | null;
  shell?: string | null;
}

/**
 * Builds an atuin `history.db` with atuin's own schema (test/fixtures/history/atuin-schema.sql,
 * its migrations) in WAL mode, the way atuin keeps it. The rows stay in the `-wal` file while the
 * returned database is open (exclusive locking: nothing is checkpointed until it closes).
 */
export function buildAtuinDatabase(file: string, rows: readonly AtuinRow[]): { close(): void } {
  const db = new Database(file);
  db.exec('PRAGMA locking_mode = EXCLUSIVE');
  db.get('PRAGMA journal_mode = WAL');
  db.exec(readFileSync(join(__dirname, '../fixtures/history/atuin-schema.sql'), 'utf8'));
  for (const row of rows) {
    db.run(
      'INSERT INTO history (id, timestamp, duration, exit, command, cwd, session, hostname, deleted_at, author, author_kind, shell) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [row.id, row.timestamp, row.duration, row.exit, row.command, row.cwd, row.session, row.hostname, row.deleted_at ?? null, row.author ?? null, row.author_kind ?? null, row.shell ?? null],
    );
  }
  return { close: () => db.close() };
}

/** ms since the epoch as atuin's nanoseconds. */
export const nanoseconds = (ms: number): bigint => BigInt(ms) * 1_000_000n;

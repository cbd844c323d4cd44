import { existsSync, mkdirSync, renameSync, rmdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Database } from 'node-sqlite3-wasm';
import { HistorySchemaTooNew, migrate, refuseNewer, type Migration } from './migrations';
import { sqlite } from './sqliteModule';

/** The file is not a readable SQLite database (garbage, truncated, malformed pages). */
class UnreadableDatabase extends Error {}

const UNREADABLE = /not a database|malformed|corrupt/i;
/** Failures that say nothing about the file's content: it must not be moved aside for them. */
const NOT_THE_FILE = /unable to open|locked|busy|readonly|permission|disk I\/O|out of memory|disk is full/i;

/**
 * Opens the history database for the one process that owns it (ownerLock.ts) and brings it to
 * the current schema. A file that is not a readable database is renamed aside with a timestamp,
 * never deleted, `report` is told where it went, and a new database is made. A file from a
 * newer Tandem is refused untouched (HistorySchemaTooNew). Other failures throw.
 *
 * Every page is checked (`PRAGMA quick_check`, 0.7 s at 100k records) only when the last owner
 * did not close the file (its lock directory or WAL is still there) or when `fullCheck` asks,
 * as the owner does after a query met a damaged page; otherwise the schema is read.
 */
export function openDatabaseFile(file: string, migrations: readonly Migration[], report: (message: string) => void, fullCheck = false): Database {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const unclean = existsSync(`${file}.lock`) || existsSync(`${file}-wal`);
  removeStaleLock(`${file}.lock`);
  try {
    return openAndMigrate(file, migrations, fullCheck || unclean);
  } catch (error) {
    if (/locked/i.test((error as Error).message) && existsSync(`${file}.lock`)) {
      throw new Error(`it is locked by ${file}.lock, which is not an empty lock folder left by Tandem; if no other program uses this database, remove it`);
    }
    if (!(error instanceof UnreadableDatabase)) throw error;
    const aside = moveAside(file);
    report(`The history database ${file} could not be read (${error.message}). It was moved aside to ${aside}, nothing was deleted, and a new, empty history was started.`);
    return openAndMigrate(file, migrations, false);
  }
}

/**
 * node-sqlite3-wasm locks with an empty `<file>.lock` directory that a killed owner leaves
 * behind. Only the owner opens the file, so one found now is stale by construction. Anything
 * else by that name is not ours: it stays, and the open reports the database as locked.
 */
function removeStaleLock(path: string): void {
  try {
    rmdirSync(path);
  } catch {
    // Not there, or not an empty directory.
  }
}

/** Whether an SQLite error means the file's content is damaged. */
export function isDamage(message: string): boolean {
  return UNREADABLE.test(message);
}

function openAndMigrate(file: string, migrations: readonly Migration[], fullCheck: boolean): Database {
  const db = new (sqlite().Database)(file);
  try {
    configure(db, file, migrations, fullCheck);
    migrate(db, file, migrations);
    return db;
  } catch (error) {
    db.close();
    if (error instanceof HistorySchemaTooNew || error instanceof UnreadableDatabase) throw error;
    const message = (error as Error).message;
    throw UNREADABLE.test(message) ? new UnreadableDatabase(message) : error;
  }
}

/** Checks the file only reading it, then switches it to WAL; a file that fails a check is not changed. */
function configure(db: Database, file: string, migrations: readonly Migration[], fullCheck: boolean): void {
  // The WASM file VFS has no shared memory: WAL works only while one connection holds the file
  // exclusively, and then it survives kill -9 (the rollback journal does not in this build:
  // docs/architecture.md, "Block history store"). Never fall back to another journal mode.
  db.exec('PRAGMA locking_mode = EXCLUSIVE');
  let check: string[];
  try {
    check = fullCheck ? (db.all('PRAGMA quick_check') as { quick_check: string }[]).map((row) => row.quick_check) : schemaReadable(db);
  } catch (error) {
    // A damaged file fails in many ways ("vtable constructor failed" for a broken search index).
    const message = (error as Error).message;
    throw NOT_THE_FILE.test(message) ? error : new UnreadableDatabase(message);
  }
  if (check.join() !== 'ok') throw new UnreadableDatabase(`quick_check: ${check.slice(0, 3).join('; ')}`);
  refuseNewer(db, file, migrations);
  // Only takes effect on a new, empty file; lets retention give pages back to the file system.
  db.exec('PRAGMA auto_vacuum = INCREMENTAL');
  const mode = (db.get('PRAGMA journal_mode = WAL') as { journal_mode: string }).journal_mode;
  if (mode !== 'wal') throw new Error(`the history database could not be put in WAL mode (it stayed in "${mode}")`);
  db.exec('PRAGMA synchronous = FULL');
  db.exec('PRAGMA journal_size_limit = 8388608');
}

function schemaReadable(db: Database): string[] {
  db.get('SELECT count(*) FROM sqlite_schema');
  return ['ok'];
}

function moveAside(file: string): string {
  const aside = `${file}.broken-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  renameSync(file, aside);
  for (const suffix of ['-wal', '-journal']) {
    if (existsSync(file + suffix)) renameSync(file + suffix, aside + suffix);
  }
  return aside;
}

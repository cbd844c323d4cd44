import type { Database } from 'node-sqlite3-wasm';

export interface Migration {
  version: number;
  description: string;
  sql: string;
}

/** The file was written by a newer Tandem: it is left exactly as it is. */
export class HistorySchemaTooNew extends Error {
  constructor(file: string, found: number, known: number) {
    super(
      `The history database ${file} has schema version ${found}, but this Tandem knows versions up to ${known}. ` +
        'It was written by a newer Tandem and was left untouched: update Tandem, or move the file away to start a new history.',
    );
  }
}

export class HistoryMigrationFailed extends Error {}

export function schemaVersion(db: Database): number {
  return Number((db.get('PRAGMA user_version') as { user_version: number }).user_version);
}

/** Throws HistorySchemaTooNew for a file from a newer Tandem, reading only; returns its version. */
export function refuseNewer(db: Database, file: string, migrations: readonly Migration[]): number {
  const found = schemaVersion(db);
  const known = migrations.length ? migrations[migrations.length - 1]!.version : 0;
  if (found > known) throw new HistorySchemaTooNew(file, found, known);
  return found;
}

/**
 * Brings the database up to the last migration. Each step and its version number commit
 * together, so a crash or a failing step leaves the file at the previous version, whole.
 */
export function migrate(db: Database, file: string, migrations: readonly Migration[]): { from: number; to: number } {
  const from = refuseNewer(db, file, migrations);
  for (const step of migrations) {
    if (step.version <= schemaVersion(db)) continue;
    db.exec('BEGIN IMMEDIATE');
    try {
      db.exec(step.sql);
      db.exec(`PRAGMA user_version = ${step.version}`);
      db.exec('COMMIT');
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw new HistoryMigrationFailed(`Upgrading the history database ${file} to version ${step.version} (${step.description}) failed: ${(error as Error).message}`);
    }
  }
  return { from, to: schemaVersion(db) };
}

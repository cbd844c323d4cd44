import { randomUUID } from 'node:crypto';
import type { Database } from 'node-sqlite3-wasm';
import type { z } from 'zod';
import { AUTHORS, blockRecordSchema, describeZodError, type Author, type HistoryStats, type RecordOutcome, type StoredRecord } from './historyRecord';
import { DEFAULT_SEARCH_LIMIT, narrowsSomething, newestFirst, searchConditions, type ParsedSearchQuery } from './historySearch';
import type { Migration } from './migrations';
import { schemaVersion } from './migrations';
import { openDatabaseFile } from './openDatabaseFile';
import { MIGRATIONS } from './schema';
import { CommandIndex, type IndexedRecord } from './ranking/commandIndex';
import { rankedSearch } from './ranking/rankedSearch';

const COLUMNS = `b.id, b.command, b.cwd, b.host, b.shell, b.pane, b.session, b.started_at, b.ended_at, b.duration_ms,
  b.exit_code, b.author, b.decision, b.rule, b.conversation, b.git_branch, b.repo_root, b.output_digest, b.output,
  b.imported, b.recorded_at`;

const INSERT = `INSERT INTO blocks (id, record_key, command, cwd, host, shell, pane, session, started_at, ended_at, duration_ms,
  exit_code, author, decision, rule, conversation, git_branch, repo_root, output_digest, output, imported, recorded_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (record_key) DO NOTHING`;

type ValidRecord = z.output<typeof blockRecordSchema>;

type Row = Record<string, string | number | null>;

/** A digest search ranked by relevance ranks this many of the newest matches. */
const DIGEST_CANDIDATES = 5000;

/**
 * The history database as its owner sees it: synchronous calls on one exclusive connection.
 * Callers hand it validated queries (historyOperations.ts); records are validated here one by
 * one, so one bad record is reported and the rest of its batch is still stored.
 *
 * Ids follow time, so "newest first" is a walk down the rowids that stops at the limit (the
 * search index is ordered by rowid too; sorting every match by start time costs 10-20 times
 * more at 100k records). Recorded blocks arrive as they finish and get the next id; imported
 * history is older than all of it, so it gets ids below the lowest one, newest first.
 */
export class HistoryDatabase {
  /** Built on the first fuzzy or relevance search (or by `prepareIndex`), then kept in step. */
  private index: CommandIndex | null = null;

  private constructor(
    private readonly db: Database,
    readonly file: string,
  ) {}

  static open(file: string, report: (message: string) => void, migrations: readonly Migration[] = MIGRATIONS, fullCheck = false): HistoryDatabase {
    return new HistoryDatabase(openDatabaseFile(file, migrations, report, fullCheck), file);
  }

  /**
   * Stores a batch in one transaction. The store does not scrub: the recorder scrubs secrets
   * from every field before it hands records over, and nothing else writes here.
   */
  record(batch: readonly unknown[], now = Date.now()): RecordOutcome {
    const outcome: RecordOutcome = { stored: 0, duplicates: 0, rejected: [] };
    const recorded: ValidRecord[] = [];
    const imported: ValidRecord[] = [];
    batch.forEach((candidate, index) => {
      const parsed = blockRecordSchema.safeParse(candidate);
      if (parsed.success) (parsed.data.imported ? imported : recorded).push(parsed.data);
      else outcome.rejected.push({ index, reason: describeZodError(parsed.error) });
    });
    if (!recorded.length && !imported.length) return outcome;
    imported.sort((a, b) => b.startedAt - a.startedAt);
    const insert = this.db.prepare(INSERT);
    const added: IndexedRecord[] = [];
    this.db.exec('BEGIN IMMEDIATE');
    try {
      let below = imported.length ? ((this.db.get('SELECT min(id) AS id FROM blocks') as Row).id as number | null) ?? 1 : 0;
      for (const r of [...recorded, ...imported]) {
        const id = r.imported ? --below : null;
        const { changes, lastInsertRowid } = insert.run([
          id,
          r.key ?? randomUUID(), r.command, r.cwd ?? null, r.host, r.shell ?? null, r.pane ?? null, r.session ?? null,
          r.startedAt, r.endedAt ?? null, r.durationMs ?? null, r.exitCode ?? null, r.author, r.decision ?? null,
          r.rule ?? null, r.conversation ?? null, r.gitBranch ?? null, r.repoRoot ?? null, r.outputDigest ?? null,
          r.output ?? null, r.imported ? 1 : 0, now,
        ]);
        if (changes) {
          outcome.stored++;
          added.push({ ...r, id: id ?? Number(lastInsertRowid), cwd: r.cwd ?? null, repoRoot: r.repoRoot ?? null, session: r.session ?? null, exitCode: r.exitCode ?? null });
        } else outcome.duplicates++;
      }
      this.db.exec('COMMIT');
      this.index?.add(added);
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw error;
    } finally {
      insert.finalize();
    }
    return outcome;
  }

  /**
   * Newest first by SQL, then ordered (historySearch.ts); fuzzy matching and relevance ranking
   * scan the in-memory index instead (ranking/), and only the results are read from SQL.
   */
  search(query: ParsedSearchQuery): StoredRecord[] {
    if (query.rank === 'relevance' || query.match === 'fuzzy') return this.rankedSearch(query);
    const { from, where, order, params } = searchConditions(query);
    const rows = this.db.all(`SELECT ${COLUMNS} FROM ${from} WHERE ${where} ORDER BY ${order} LIMIT ?`, [
      ...params,
      query.limit ?? DEFAULT_SEARCH_LIMIT,
    ]) as Row[];
    return newestFirst(rows.map(toRecord));
  }

  /** Builds the index fuzzy and relevance search use, if it is not built yet (the owner does it soon after opening). */
  prepareIndex(): CommandIndex {
    if (this.index) return this.index;
    const index = new CommandIndex();
    const rows = this.db.all('SELECT id, command, cwd, repo_root, host, author, session, started_at, exit_code FROM blocks') as Row[];
    index.add(
      rows.map((row) => ({
        id: row.id as number,
        command: row.command as string,
        cwd: row.cwd as string | null,
        repoRoot: row.repo_root as string | null,
        host: row.host as string,
        author: row.author as string,
        session: row.session as string | null,
        startedAt: row.started_at as number,
        exitCode: row.exit_code as number | null,
      })),
    );
    this.index = index;
    return index;
  }

  private rankedSearch(query: ParsedSearchQuery): StoredRecord[] {
    const index = this.prepareIndex();
    const limit = query.limit ?? DEFAULT_SEARCH_LIMIT;
    let matchedIds: Set<number> | undefined;
    if (query.fields === 'all' && query.query && query.match !== 'fuzzy') {
      const { from, where, order, params } = searchConditions(query);
      const rows = this.db.all(`SELECT b.id FROM ${from} WHERE ${where} ORDER BY ${order} LIMIT ?`, [...params, DIGEST_CANDIDATES]) as Row[];
      matchedIds = new Set(rows.map((row) => row.id as number));
    }
    const hits = rankedSearch(index, query, { limit, matchedIds });
    if (hits.length === 0) return [];
    const rows = this.db.all(`SELECT ${COLUMNS} FROM blocks b WHERE b.id IN (${hits.map(() => '?').join(',')})`, hits.map((hit) => hit.id)) as Row[];
    const byId = new Map(rows.map((row) => [row.id as number, toRecord(row)]));
    const records = hits.flatMap((hit) => {
      const record = byId.get(hit.id);
      return record ? [hit.runs === undefined ? record : { ...record, runs: hit.runs }] : [];
    });
    return query.rank === 'relevance' ? records : newestFirst(records);
  }

  /** The record and up to `count` commands before and after it in its session, oldest first; [] when it is gone. */
  neighbours(id: number, count: number): StoredRecord[] {
    const rows = this.db.all(`SELECT ${COLUMNS} FROM blocks b WHERE b.id = ?`, [id]) as Row[];
    const record = rows[0];
    if (!record) return [];
    if (record.session === null) return [toRecord(record)];
    const at: (string | number)[] = [record.session as string, record.started_at as number, id];
    const before = this.db.all(
      `SELECT ${COLUMNS} FROM blocks b WHERE b.session = ? AND (b.started_at, b.id) < (?, ?) ORDER BY b.started_at DESC, b.id DESC LIMIT ?`,
      [...at, count],
    ) as Row[];
    const after = this.db.all(
      `SELECT ${COLUMNS} FROM blocks b WHERE b.session = ? AND (b.started_at, b.id) > (?, ?) ORDER BY b.started_at, b.id LIMIT ?`,
      [...at, count],
    ) as Row[];
    return [...before.reverse(), record, ...after].map(toRecord);
  }

  /**
   * Deletes records by id, every run of the given commands, or every record a query matches (its
   * limit ignored, every run of a command a relevance search shows once); returns how many went. A fuzzy query deletes what
   * the fuzzy search finds, not what a substring search would.
   */
  forget(request: { ids: number[] } | { query: ParsedSearchQuery } | { commands: string[] }): number {
    if ('commands' in request) {
      const ids = request.commands.flatMap((command) => (this.db.all('SELECT id FROM blocks WHERE command = ?', [command]) as Row[]).map((row) => row.id as number));
      return ids.length ? this.forget({ ids }) : 0;
    }
    if ('query' in request && request.query.match === 'fuzzy' && request.query.query) {
      const every = rankedSearch(this.prepareIndex(), { ...request.query, rank: 'recency' }, { limit: Number.MAX_SAFE_INTEGER });
      return every.length ? this.forget({ ids: every.map((hit) => hit.id) }) : 0;
    }
    if ('ids' in request) {
      let deleted = 0;
      this.transaction(() => {
        const remove = this.db.prepare('DELETE FROM blocks WHERE id = ?');
        try {
          for (const id of request.ids) deleted += remove.run(id).changes;
          this.index?.remove(request.ids);
        } finally {
          remove.finalize();
        }
      });
      return deleted;
    }
    if (!narrowsSomething(request.query)) throw new RangeError('forget needs ids, a search text or a filter; it never deletes the whole history at once');
    const { from, where, params } = searchConditions(request.query);
    let deleted = 0;
    this.transaction(() => (deleted = this.deleteReturning(`DELETE FROM blocks WHERE id IN (SELECT b.id FROM ${from} WHERE ${where}) RETURNING id`, params)));
    return deleted;
  }

  stats(): HistoryStats {
    const totals = this.db.get(
      'SELECT count(*) AS records, coalesce(sum(imported), 0) AS imported, min(started_at) AS oldest, max(started_at) AS newest FROM blocks',
    ) as Row;
    const byAuthor = Object.fromEntries(AUTHORS.map((author) => [author, 0])) as Record<Author, number>;
    for (const row of this.db.all('SELECT author, count(*) AS n FROM blocks GROUP BY author') as Row[]) byAuthor[row.author as Author] = row.n as number;
    return {
      file: this.file,
      schemaVersion: schemaVersion(this.db),
      records: totals.records as number,
      imported: totals.imported as number,
      byAuthor,
      oldestStartedAt: totals.oldest as number | null,
      newestStartedAt: totals.newest as number | null,
      bytes: this.usedBytes(),
    };
  }

  /** Bytes the records and indexes take: pages in use, not the free list that retention leaves. */
  usedBytes(): number {
    const page = this.db.get('SELECT page_count, freelist_count, page_size FROM pragma_page_count, pragma_freelist_count, pragma_page_size') as Row;
    return ((page.page_count as number) - (page.freelist_count as number)) * (page.page_size as number);
  }

  /** Deletes up to `max` records that started before `before`, oldest first; returns how many went. */
  deleteOlderThan(before: number, max: number): number {
    let deleted = 0;
    this.transaction(
      () =>
        (deleted = this.deleteReturning('DELETE FROM blocks WHERE id IN (SELECT id FROM blocks WHERE started_at < ? ORDER BY started_at LIMIT ?) RETURNING id', [
          before,
          max,
        ])),
    );
    return deleted;
  }

  /** Deletes the `count` oldest records; returns how many went. */
  deleteOldest(count: number): number {
    return this.deleteOlderThan(Number.MAX_SAFE_INTEGER, count);
  }

  /**
   * Gives the space of deleted records back after a large delete: FTS5 only marks deletions in
   * its index until its segments are merged, then the freed pages go back to the file system.
   */
  reclaim(): void {
    this.db.exec("INSERT INTO blocks_fts (blocks_fts) VALUES ('optimize')");
    this.db.exec('PRAGMA incremental_vacuum');
  }

  /** `PRAGMA integrity_check` and the search index's own check, for tests and `tandem history stats`. */
  integrity(): { database: string; searchIndex: string } {
    const database = (this.db.all('PRAGMA integrity_check') as { integrity_check: string }[]).map((row) => row.integrity_check).join('; ');
    let searchIndex = 'ok';
    try {
      this.db.exec("INSERT INTO blocks_fts (blocks_fts, rank) VALUES ('integrity-check', 1)");
    } catch (error) {
      searchIndex = (error as Error).message;
    }
    return { database, searchIndex };
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }

  /** Runs a DELETE … RETURNING id, takes what it deleted out of the index, and says how many went. */
  private deleteReturning(sql: string, params: (string | number)[]): number {
    const ids = (this.db.all(sql, params) as Row[]).map((row) => row.id as number);
    this.index?.remove(ids);
    return ids.length;
  }

  private transaction(work: () => void): void {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      work();
      this.db.exec('COMMIT');
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      // Deletes may have been taken out of the index: it is built again from the file.
      this.index = null;
      throw error;
    }
  }
}

function toRecord(row: Row): StoredRecord {
  return {
    id: row.id as number,
    command: row.command as string,
    cwd: row.cwd as string | null,
    host: row.host as string,
    shell: row.shell as string | null,
    pane: row.pane as string | null,
    session: row.session as string | null,
    startedAt: row.started_at as number,
    endedAt: row.ended_at as number | null,
    durationMs: row.duration_ms as number | null,
    exitCode: row.exit_code as number | null,
    author: row.author as Author,
    decision: row.decision as string | null,
    rule: row.rule as string | null,
    conversation: row.conversation as string | null,
    gitBranch: row.git_branch as string | null,
    repoRoot: row.repo_root as string | null,
    outputDigest: row.output_digest as string | null,
    output: row.output as string | null,
    imported: row.imported === 1,
    recordedAt: row.recorded_at as number,
  };
}

import type { Migration } from './migrations';

/**
 * The history database's schema, one migration per version (`PRAGMA user_version`). Released
 * steps are never edited: a change is a new step at the end.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'block records',
    sql: `
      CREATE TABLE blocks (
        id INTEGER PRIMARY KEY,
        record_key TEXT NOT NULL UNIQUE,
        command TEXT NOT NULL,
        cwd TEXT,
        host TEXT NOT NULL,
        shell TEXT,
        pane TEXT,
        session TEXT,
        started_at INTEGER NOT NULL,
        ended_at INTEGER,
        duration_ms INTEGER,
        exit_code INTEGER,
        author TEXT NOT NULL CHECK (author IN ('you', 'agent-step', 'auto-run', 'child-agent')),
        decision TEXT,
        rule TEXT,
        conversation TEXT,
        git_branch TEXT,
        repo_root TEXT,
        output_digest TEXT,
        output TEXT,
        imported INTEGER NOT NULL DEFAULT 0 CHECK (imported IN (0, 1)),
        recorded_at INTEGER NOT NULL
      );
      -- Results come newest id first (historyDatabase.ts says why ids follow time): an index on
      -- one column keeps equal keys in id order, so a filtered search walks it backwards.
      CREATE INDEX blocks_recency ON blocks (started_at);
      CREATE INDEX blocks_cwd ON blocks (cwd);
      CREATE INDEX blocks_repo ON blocks (repo_root);
      CREATE INDEX blocks_exit_code ON blocks (exit_code);
      CREATE INDEX blocks_session ON blocks (session, started_at);
    `,
  },
  {
    version: 2,
    description: 'substring search index',
    // FTS5 with the trigram tokenizer: every 3-character run of the text is a term, so a MATCH
    // on a quoted phrase is a substring search ("ctl lo" finds "kubectl logs"), case-insensitive,
    // with no word splitting to get wrong in commands full of paths, flags and punctuation, and
    // it also serves `LIKE '%…%'`. unicode61 would only find whole words or prefixes. Queries
    // under 3 characters have no trigram: the store scans with LIKE instead (historySearch.ts).
    // detail=full (the default) is required: trigram phrases fail with detail=none.
    // Only the command is indexed: trigrams cost ~3 bytes of index per byte of text, and output
    // digests are many times longer than commands; they are searched by a scan (fields: "all").
    // External content (content='blocks'): the text is stored once, the triggers keep the
    // index in step with the table inside the same transaction.
    sql: `
      CREATE VIRTUAL TABLE blocks_fts USING fts5(command, content='blocks', content_rowid='id', tokenize='trigram');
      CREATE TRIGGER blocks_fts_insert AFTER INSERT ON blocks BEGIN
        INSERT INTO blocks_fts (rowid, command) VALUES (new.id, new.command);
      END;
      CREATE TRIGGER blocks_fts_delete AFTER DELETE ON blocks BEGIN
        INSERT INTO blocks_fts (blocks_fts, rowid, command) VALUES ('delete', old.id, old.command);
      END;
      CREATE TRIGGER blocks_fts_update AFTER UPDATE OF command ON blocks BEGIN
        INSERT INTO blocks_fts (blocks_fts, rowid, command) VALUES ('delete', old.id, old.command);
        INSERT INTO blocks_fts (rowid, command) VALUES (new.id, new.command);
      END;
      INSERT INTO blocks_fts (blocks_fts) VALUES ('rebuild');
    `,
  },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

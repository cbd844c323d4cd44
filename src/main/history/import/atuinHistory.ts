import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqlite } from '../sqliteModule';
import { ParsedHistoryBuilder, type HistoryEntry, type ParsedHistory } from './historyEntry';

/** Agents atuin recognises by their author name when an entry does not say (atuin's `KNOWN_AGENTS`). */
const KNOWN_AGENTS = new Set(['claude-code', 'codex', 'copilot', 'opencode', 'pi']);
/** atuin's `AuthorKind::Agent`. */
const AGENT_KIND = 2;
/** atuin's value for an exit code or duration it does not know, and for a cwd it does not know. */
const UNKNOWN_NUMBER = -1;
const UNKNOWN_CWD = 'unknown';
const NS_PER_MS = 1_000_000;

type Row = Record<string, string | number | bigint | null>;

/**
 * atuin's `history.db` (its `history` table, atuin's own migrations). The file and its `-wal`
 * are copied to a temporary folder and the copy is opened read-only, so a running atuin
 * is neither blocked nor changed. Columns newer atuin versions added (`author`, `author_kind`,
 * `shell`) are read when they are there. Entries atuin deleted (`deleted_at`) are left out;
 * rows with no command or an impossible time are skipped and counted. Throws when the file is
 * not an SQLite database with atuin's history table.
 */
export function readAtuinHistory(file: string): ParsedHistory {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-atuin-'));
  try {
    const copy = join(dir, 'history.db');
    copyFileSync(file, copy);
    // The WAL holds atuin's latest commands until it checkpoints. Without the shared memory
    // file (not copied) a read-only WAL database opens only in exclusive locking mode.
    if (existsSync(`${file}-wal`)) copyFileSync(`${file}-wal`, `${copy}-wal`);
    const db = new (sqlite().Database)(copy, { readOnly: true });
    try {
      db.exec('PRAGMA locking_mode = EXCLUSIVE');
      return entriesOf(db);
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function entriesOf(db: InstanceType<ReturnType<typeof sqlite>['Database']>): ParsedHistory {
  const columns = new Set((db.all("SELECT name FROM pragma_table_info('history')") as { name: string }[]).map((row) => row.name));
  const required = ['id', 'timestamp', 'duration', 'exit', 'command', 'cwd', 'session', 'hostname'];
  const missing = required.filter((column) => !columns.has(column));
  if (missing.length) throw new Error(columns.size ? `its history table has no ${missing.join(', ')} column` : 'it has no history table: it is not an atuin database');
  const optional = ['author', 'author_kind', 'shell'].filter((column) => columns.has(column));
  const deleted = columns.has('deleted_at') ? 'WHERE deleted_at IS NULL' : '';
  const rows = db.all(`SELECT ${[...required, ...optional].join(', ')} FROM history ${deleted} ORDER BY timestamp, rowid`) as Row[];
  const parsed = new ParsedHistoryBuilder();
  rows.forEach((row, index) => {
    const entry = toEntry(row);
    if (entry) parsed.entries.push(entry);
    else parsed.skip(index + 1);
  });
  return parsed.result();
}

function toEntry(row: Row): HistoryEntry | undefined {
  const command = typeof row.command === 'string' ? row.command : '';
  const startedAt = milliseconds(row.timestamp);
  if (command.trim() === '' || !Number.isSafeInteger(startedAt) || startedAt < 0) return undefined;
  const entry: HistoryEntry = { command, startedAt, sourceId: String(row.id) };
  const duration = milliseconds(row.duration);
  if (Number.isSafeInteger(duration) && duration >= 0 && Number(row.duration) !== UNKNOWN_NUMBER) entry.durationMs = duration;
  const exit = Number(row.exit);
  if (Number.isSafeInteger(exit) && exit !== UNKNOWN_NUMBER) entry.exitCode = exit;
  if (typeof row.cwd === 'string' && row.cwd && row.cwd !== UNKNOWN_CWD) entry.cwd = row.cwd;
  if (typeof row.session === 'string' && row.session) entry.session = row.session;
  // atuin writes "host:user".
  const [host, user] = typeof row.hostname === 'string' ? splitOrigin(row.hostname) : [undefined, undefined];
  if (host) entry.host = host;
  if (typeof row.shell === 'string' && row.shell) entry.shell = row.shell;
  entry.byAgent = isAgent(row, user);
  return entry;
}

/** atuin's nanoseconds (a bigint past 2^53, as SQLite hands them over) in whole ms; NaN when not a number. */
function milliseconds(nanoseconds: Row[string] | undefined): number {
  if (typeof nanoseconds === 'bigint') return Number(nanoseconds / BigInt(NS_PER_MS));
  return typeof nanoseconds === 'number' ? Math.floor(nanoseconds / NS_PER_MS) : Number.NaN;
}

function splitOrigin(origin: string): [string, string | undefined] {
  const colon = origin.indexOf(':');
  return colon === -1 ? [origin, undefined] : [origin.slice(0, colon), origin.slice(colon + 1)];
}

/** atuin's own rule (`History::is_agent`): the stated kind, else a known agent's name that is not just the user's. */
function isAgent(row: Row, user: string | undefined): boolean {
  const kind = row.author_kind === null || row.author_kind === undefined ? undefined : Number(row.author_kind);
  if (kind === 1 || kind === AGENT_KIND) return kind === AGENT_KIND;
  const author = typeof row.author === 'string' ? row.author.trim() : '';
  return KNOWN_AGENTS.has(author) && author !== user;
}

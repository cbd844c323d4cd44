import type { z } from 'zod';
import type { searchQuerySchema, StoredRecord } from './historyRecord';

export type ParsedSearchQuery = z.output<typeof searchQuerySchema>;

export const DEFAULT_SEARCH_LIMIT = 50;

/** The trigram index needs 3 characters; shorter text is found by a LIKE scan, newest first. */
const TRIGRAM = 3;

type Param = string | number;

/**
 * The FROM, WHERE and ORDER BY that a search's text and filters make, with their parameters.
 * Newest id first is newest first (historyDatabase.ts). A text of 3 characters or more walks
 * the trigram index from its highest rowid down and stops at the limit; shorter text, digest
 * text and filters alone walk the table (or a filter's index) from the newest id down.
 */
export function searchConditions(query: ParsedSearchQuery): { from: string; where: string; order: string; params: Param[] } {
  const conditions: string[] = [];
  const params: Param[] = [];
  const text = query.query ?? '';
  const escaped = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const trigrams = [...text].length >= TRIGRAM;
  let from = 'blocks b';
  let order = 'b.id DESC';
  if (trigrams && query.fields !== 'all') {
    from = 'blocks_fts f JOIN blocks b ON b.id = f.rowid';
    order = 'f.rowid DESC';
    conditions.push('blocks_fts MATCH ?');
    params.push(phrase(text));
  } else if (trigrams) {
    conditions.push("(b.id IN (SELECT rowid FROM blocks_fts WHERE blocks_fts MATCH ?) OR b.output_digest LIKE ? ESCAPE '\\')");
    params.push(phrase(text), escaped);
  } else if (text.length > 0) {
    conditions.push(query.fields === 'all' ? "(b.command LIKE ? ESCAPE '\\' OR b.output_digest LIKE ? ESCAPE '\\')" : "b.command LIKE ? ESCAPE '\\'");
    params.push(...(query.fields === 'all' ? [escaped, escaped] : [escaped]));
  }
  if (query.failed) conditions.push('b.exit_code IS NOT NULL AND b.exit_code <> 0');
  const equal: [string, Param | undefined][] = [
    ['b.cwd', query.cwd],
    ['b.repo_root', query.repo],
    ['b.host', query.host],
    ['b.author', query.author],
    ['b.session', query.session],
  ];
  for (const [column, value] of equal) {
    if (value === undefined) continue;
    conditions.push(`${column} = ?`);
    params.push(value);
  }
  if (query.since !== undefined) {
    conditions.push('b.started_at >= ?');
    params.push(query.since);
  }
  if (query.until !== undefined) {
    conditions.push('b.started_at <= ?');
    params.push(query.until);
  }
  return { from, where: conditions.length ? conditions.join(' AND ') : '1', order, params };
}

/** The text as one FTS5 phrase: quotes doubled, so operators and punctuation in it are text. */
function phrase(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/** Whether a query narrows anything: forgetting "everything" by an empty query is refused. */
export function narrowsSomething(query: ParsedSearchQuery): boolean {
  return searchConditions(query).where !== '1';
}

/**
 * Orders results by recency: what the SQL gives, made exact by when each block started (records
 * from several processes can arrive a little out of order). Relevance ranking and fuzzy matching
 * are the in-memory index's (ranking/rankedSearch.ts).
 */
export function newestFirst(records: StoredRecord[]): StoredRecord[] {
  return records.sort((a, b) => b.startedAt - a.startedAt || b.id - a.id);
}

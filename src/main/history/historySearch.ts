import type { z } from 'zod';
import type { searchQuerySchema, StoredRecord } from './historyRecord';

export type ParsedSearchQuery = z.output<typeof searchQuerySchema>;

export const DEFAULT_SEARCH_LIMIT = 50;

/** The trigram index needs 3 characters; shorter text is found by a LIKE scan, newest first. */
const TRIGRAM = 3;

type Param = string | number;

/** The WHERE clause (over `blocks b`) that a search's text and filters make, with its parameters. */
export function searchConditions(query: ParsedSearchQuery): { where: string; params: Param[] } {
  const conditions: string[] = [];
  const params: Param[] = [];
  const text = query.query ?? '';
  const everywhere = query.fields === 'all';
  if ([...text].length >= TRIGRAM) {
    const phrase = `"${text.replaceAll('"', '""')}"`;
    conditions.push('b.id IN (SELECT rowid FROM blocks_fts WHERE blocks_fts MATCH ?)');
    params.push(everywhere ? phrase : `command : ${phrase}`);
  } else if (text.length > 0) {
    const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(everywhere ? "(b.command LIKE ? ESCAPE '\\' OR b.output_digest LIKE ? ESCAPE '\\')" : "b.command LIKE ? ESCAPE '\\'");
    params.push(...(everywhere ? [pattern, pattern] : [pattern]));
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
  return { where: conditions.length ? conditions.join(' AND ') : '1', params };
}

/** Whether a query narrows anything: forgetting "everything" by an empty query is refused. */
export function narrowsSomething(query: ParsedSearchQuery): boolean {
  return searchConditions(query).where !== '1';
}

/**
 * Orders the newest candidates for display. Recency is what the SQL already gives; frequency
 * (how often the same command was run) and same-directory boosts (`query.from`) are to be
 * scored here over the candidates, so the SQL and the wire stay as they are.
 */
export function rankRecords(records: StoredRecord[], query: ParsedSearchQuery): StoredRecord[] {
  switch (query.rank ?? 'recency') {
    case 'recency':
      return records;
  }
}

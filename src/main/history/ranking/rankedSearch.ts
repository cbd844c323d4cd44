import type { ParsedSearchQuery } from '../historySearch';
import { FIELD, type CommandIndex } from './commandIndex';
import { letterMask } from './foldedCommands';
import { fuzzyScorer } from './fuzzyScore';
import { relevanceScore } from './relevanceScore';

/** A result of the index: the record to show and, ranked by relevance, how many runs it stands for. */
export interface RankedHit {
  id: number;
  runs?: number;
}

export interface RankedSearchOptions {
  limit: number;
  /** Only these records can match, and their text already did (a digest search made in SQL). */
  matchedIds?: ReadonlySet<number>;
}

/**
 * Searches the index (commandIndex.ts) for fuzzy matches and for relevance ranking.
 *
 * By relevance, results are de-duplicated by command text: each command once, as its newest
 * run among those the filters keep, with `runs`, how many of those there are; ordered by a
 * score of match quality, recency, frequency and same directory (relevanceScore.ts), then
 * newest first. By recency (fuzzy matches only: substring recency is SQL's), every matching
 * run is a result, newest id first.
 */
export function rankedSearch(index: CommandIndex, query: ParsedSearchQuery, options: RankedSearchOptions): RankedHit[] {
  const { rows } = index;
  rows.sortById();
  const filter = rowFilter(index, query);
  if (filter === null) return [];
  const { matchedIds } = options;
  const { scoreText, candidates } = textMatcher(index, query, matchedIds !== undefined);
  const quality = new Float64Array(index.commands.length).fill(NaN);
  const { ids, command: commandOf, startedAt } = rows;
  const matchOf = (command: number): number => {
    let score = quality[command]!;
    if (Number.isNaN(score)) score = quality[command] = scoreText(command);
    return score;
  };
  /** The row's command's match quality, or -1 when the row is not a result. */
  const kept = (row: number): number => {
    const score = matchOf(commandOf[row]!);
    if (score < 0 || (filter && !filter(row)) || (matchedIds && !matchedIds.has(ids[row]!))) return -1;
    return score;
  };
  if ((query.rank ?? 'recency') === 'recency') {
    const hits: RankedHit[] = [];
    for (let row = rows.length - 1; row >= 0 && hits.length < options.limit; row--) if (kept(row) >= 0) hits.push({ id: ids[row]! });
    return hits;
  }
  const from = query.from === undefined ? -1 : (index.values.find(query.from) ?? -1);
  const { runs, newest, sameDirectory, touched } =
    filter === undefined && matchedIds === undefined ? everyRun(index, from, candidates, matchOf) : keptRuns(index, from, kept);
  const scores = new Float64Array(touched.length);
  touched.forEach((command, i) => {
    const facts = { match: quality[command]!, ageMs: rows.newestStart - startedAt[newest[command]!]!, runs: runs[command]!, sameDirectory: sameDirectory[command] === 1 };
    scores[i] = relevanceScore(facts);
  });
  const newestRow = (i: number) => newest[touched[i]!]!;
  const order = best(scores, options.limit, (a, b) => startedAt[newestRow(b)]! - startedAt[newestRow(a)]! || ids[newestRow(b)]! - ids[newestRow(a)]!);
  return order.map((i) => ({ id: ids[newestRow(i)]!, runs: runs[touched[i]!]! }));
}

interface Counted {
  runs: Int32Array;
  newest: Int32Array;
  sameDirectory: Uint8Array;
  /** The commands with a kept run. */
  touched: number[];
}

/** Without filters: every run counts, so the index's totals serve, and only the text is matched now. */
function everyRun(index: CommandIndex, from: number, candidates: readonly number[] | null, matchOf: (command: number) => number): Counted {
  const { runs, newest } = index.commandTotals();
  const touched: number[] = [];
  const consider = (command: number) => {
    if (runs[command]! > 0 && matchOf(command) >= 0) touched.push(command);
  };
  if (candidates) candidates.forEach(consider);
  else for (let command = 0; command < runs.length; command++) consider(command);
  const sameDirectory = from > 0 ? index.commandsRunIn(from) : new Uint8Array(index.commands.length);
  return { runs, newest, sameDirectory, touched };
}

/** With filters: the runs they keep, counted row by row. */
function keptRuns(index: CommandIndex, from: number, kept: (row: number) => number): Counted {
  const { rows } = index;
  const runs = new Int32Array(index.commands.length);
  const newest = new Int32Array(index.commands.length);
  const sameDirectory = new Uint8Array(index.commands.length);
  const touched: number[] = [];
  for (let row = 0; row < rows.length; row++) {
    if (kept(row) < 0) continue;
    const command = rows.command[row]!;
    if (from > 0 && rows.field(row, FIELD.cwd) === from) sameDirectory[command] = 1;
    runs[command] = runs[command]! + 1;
    if (runs[command] === 1) touched.push(command);
    else if (rows.startedAt[row]! < rows.startedAt[newest[command]!]!) continue;
    newest[command] = row;
  }
  return { runs, newest, sameDirectory, touched };
}

/** The indexes of the `limit` highest scores, best first; ties go by `tie`. */
function best(scores: Float64Array, limit: number, tie: (a: number, b: number) => number): number[] {
  if (scores.length === 0) return [];
  const ascending = Float64Array.from(scores).sort();
  const threshold = ascending[Math.max(0, ascending.length - limit)]!;
  const chosen: number[] = [];
  for (let i = 0; i < scores.length; i++) if (scores[i]! >= threshold) chosen.push(i);
  return chosen.sort((a, b) => scores[b]! - scores[a]! || tie(a, b)).slice(0, limit);
}

interface TextMatcher {
  /** How a command matches the text: -1 for no match, else its quality 0..1. */
  scoreText(command: number): number;
  /** The only commands that can match, or null for any. */
  candidates: number[] | null;
}

function textMatcher(index: CommandIndex, query: ParsedSearchQuery, textAlreadyMatched: boolean): TextMatcher {
  const text = query.query ?? '';
  if (text === '' || textAlreadyMatched) return { scoreText: () => 0, candidates: null };
  const { texts, masks } = index.folded;
  if (query.match === 'fuzzy') {
    const score = fuzzyScorer(text);
    // A command missing one of the text's letters or digits cannot match: most are turned away here.
    const needed = letterMask(text.toLowerCase());
    const candidates: number[] = [];
    for (let command = 0; command < masks.length; command++) if ((masks[command]! & needed) === needed) candidates.push(command);
    return { scoreText: (command) => ((masks[command]! & needed) !== needed ? -1 : score(index.commands[command]!, texts[command]!)), candidates };
  }
  // Every command holding the text, found in one pass (foldedCommands.ts).
  const quality = new Float64Array(index.commands.length).fill(-1);
  const candidates: number[] = [];
  for (const [command, at] of index.folded.holding(text.toLowerCase())) {
    quality[command] = substringQuality(texts[command]!, at);
    candidates.push(command);
  }
  return { scoreText: (command) => quality[command]!, candidates };
}

const WORD_BEFORE = /[\s/\-_.:=]/;

/** A substring match at `at`: better at the command's start (1) or a word's (0.5) than elsewhere (0.25). */
function substringQuality(command: string, at: number): number {
  if (at === 0) return 1;
  return WORD_BEFORE.test(command[at - 1]!) ? 0.5 : 0.25;
}

/** The filters of the query as a test of a row; undefined with no filter, null when one names a value no record has. */
function rowFilter(index: CommandIndex, query: ParsedSearchQuery): ((row: number) => boolean) | undefined | null {
  const { rows, values } = index;
  const equal: [number, string | undefined][] = [
    [FIELD.cwd, query.cwd],
    [FIELD.repo, query.repo],
    [FIELD.host, query.host],
    [FIELD.author, query.author],
    [FIELD.session, query.session],
  ];
  const wanted: [number, number][] = [];
  for (const [field, value] of equal) {
    if (value === undefined) continue;
    const number = values.find(value);
    if (number === undefined) return null;
    wanted.push([field, number]);
  }
  const { failed, since, until } = query;
  if (wanted.length === 0 && !failed && since === undefined && until === undefined) return undefined;
  return (row) => {
    for (const [field, number] of wanted) if (rows.field(row, field) !== number) return false;
    if (failed) {
      const exit = rows.exitCode[row]!;
      if (Number.isNaN(exit) || exit === 0) return false;
    }
    if (since !== undefined && rows.startedAt[row]! < since) return false;
    return until === undefined || rows.startedAt[row]! <= until;
  };
}

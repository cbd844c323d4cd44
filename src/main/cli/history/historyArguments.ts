import { resolve } from 'node:path';
import { HISTORY_SOURCES, type HistorySource } from '../../history/import/importedRecords';
import { LIMITS, type SearchQuery } from '../../history/historyRecord';
import { parseSince } from '../../telemetry/sinceOption';

export const HISTORY_USAGE = `Usage:
  tandem history [QUERY] [--failed] [--cwd DIR] [--since 2d|3h|2026-11-01] [--limit N] [--json]
                       commands from the block history, newest first: QUERY is a substring of the
                       command (case-insensitive); --failed only those that exited non-zero;
                       --cwd only those run in DIR; --since 2w, 7d, 24h, 30m or a date;
                       --limit how many (default 50, at most 1000); --json one JSON object a line
  tandem history forget ID…
  tandem history forget --query QUERY [--failed] [--cwd DIR] [--since …] [--yes]
                       deletes records by id (the first column, "id" in --json), or everything a
                       search finds, after showing it and asking (--yes: without asking; needed
                       when there is no terminal to ask on)
  tandem history import [bash|zsh|fish|atuin] [FILE]
                       imports a shell's own history once (again is harmless: nothing is stored
                       twice); without a format, every one found in its usual place
                       (~/.bash_history, ~/.zsh_history, fish's fish_history, atuin's history.db)
  tandem history stats [--json]
                       how many records, imported, by whom, from when to when, the file and its size
  Exit status: 0 done, 1 nothing found (no match, no history file to import), 2 a usage error
  or a history database that cannot be used. "--" ends the options: tandem history -- --json`;

export type HistoryArguments =
  | { kind: 'search'; query: SearchQuery; json: boolean }
  | { kind: 'forget-ids'; ids: number[] }
  | { kind: 'forget-query'; query: SearchQuery; yes: boolean }
  | { kind: 'import'; source?: HistorySource; file?: string }
  | { kind: 'stats'; json: boolean }
  | { kind: 'help' }
  | { kind: 'error'; message: string };

type Filters = { query: SearchQuery; words: string[]; json: boolean; yes: boolean; querySet: boolean };

/** `tandem history …` (everything after `history`); `now` and `cwd` resolve --since and --cwd. */
export function parseHistoryArguments(argv: readonly string[], now = new Date(), cwd = process.cwd()): HistoryArguments {
  if (argv.some((arg, index) => (arg === '--help' || arg === '-h') && !argv.slice(0, index).includes('--'))) return { kind: 'help' };
  const [sub, ...rest] = argv;
  if (sub === 'import') return parseImport(rest);
  if (sub === 'stats') {
    const extra = rest.find((arg) => arg !== '--json');
    return extra === undefined ? { kind: 'stats', json: rest.includes('--json') } : { kind: 'error', message: `Unknown argument "${extra}" for tandem history stats.` };
  }
  const forget = sub === 'forget';
  const parsed = parseFilters(forget ? rest : argv, now, cwd, forget);
  if ('error' in parsed) return { kind: 'error', message: parsed.error };
  if (!forget) {
    if (parsed.yes) return { kind: 'error', message: '--yes is only for tandem history forget.' };
    const text = parsed.words.join(' ');
    return { kind: 'search', query: text ? { ...parsed.query, query: text } : parsed.query, json: parsed.json };
  }
  if (parsed.json) return { kind: 'error', message: 'tandem history forget takes no --json.' };
  if (parsed.querySet) {
    if (parsed.words.length) return { kind: 'error', message: `tandem history forget takes ids or --query, not both ("${parsed.words[0]}").` };
    return { kind: 'forget-query', query: parsed.query, yes: parsed.yes };
  }
  if (Object.keys(parsed.query).length) return { kind: 'error', message: 'tandem history forget: the filters go with --query QUERY.' };
  if (!parsed.words.length) return { kind: 'error', message: 'tandem history forget needs record ids (see `tandem history`) or --query QUERY.' };
  const bad = parsed.words.find((word) => !/^-?\d{1,15}$/.test(word));
  if (bad !== undefined) return { kind: 'error', message: `"${bad}" is not a record id; ids are the numbers in the first column of \`tandem history\`.` };
  return { kind: 'forget-ids', ids: parsed.words.map(Number) };
}

function parseFilters(args: readonly string[], now: Date, cwd: string, forget: boolean): Filters | { error: string } {
  const filters: Filters = { query: {}, words: [], json: false, yes: false, querySet: false };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      filters.words.push(...args.slice(i + 1));
      break;
    }
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => inline ?? args[++i];
    if (flag === '--failed') filters.query.failed = true;
    else if (flag === '--json') filters.json = true;
    else if (flag === '--yes' || flag === '-y') filters.yes = true;
    else if (flag === '--cwd') {
      const dir = value();
      if (!dir) return { error: '--cwd needs a directory.' };
      filters.query.cwd = resolve(cwd, dir);
    } else if (flag === '--since') {
      const text = value();
      if (!text) return { error: '--since needs a value such as 2d, 3h or 2026-11-01.' };
      const since = parseSince(text, now);
      if ('error' in since) return { error: since.error };
      filters.query.since = Math.max(0, since.getTime());
    } else if (flag === '--limit' && !forget) {
      const text = value() ?? '';
      const limit = Number(text);
      if (!/^\d+$/.test(text) || limit < 1 || limit > LIMITS.searchLimit) return { error: `--limit needs a whole number from 1 to ${LIMITS.searchLimit}, got "${text}".` };
      filters.query.limit = limit;
    } else if (flag === '--query' && forget) {
      const text = value();
      if (!text) return { error: '--query needs the text to search for.' };
      filters.query.query = text;
      filters.querySet = true;
    } else if (flag.startsWith('-') && flag.length > 1 && !/^-\d+$/.test(flag)) {
      return { error: `Unknown option "${arg}" for tandem history${forget ? ' forget' : ''}.` };
    } else filters.words.push(arg);
  }
  return filters;
}

function parseImport(args: readonly string[]): HistoryArguments {
  const unknownOption = args.find((arg) => arg.startsWith('-'));
  if (unknownOption) return { kind: 'error', message: `Unknown option "${unknownOption}" for tandem history import.` };
  const [source, file, extra] = args;
  if (source === undefined) return { kind: 'import' };
  if (!(HISTORY_SOURCES as readonly string[]).includes(source)) {
    return { kind: 'error', message: `tandem history import reads ${HISTORY_SOURCES.join(', ')}; "${source}" is not one of them (a file goes after its format: tandem history import zsh FILE).` };
  }
  if (extra !== undefined) return { kind: 'error', message: `tandem history import takes one file; got "${extra}" too.` };
  return file === undefined ? { kind: 'import', source: source as HistorySource } : { kind: 'import', source: source as HistorySource, file };
}

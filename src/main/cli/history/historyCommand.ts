import { confirm } from '../confirmQuestion';
import { plural } from '../../../shared/countWords';
import { importHistory } from '../../history/import/importHistory';
import { defaultHistoryFiles } from '../../history/import/historySources';
import { HISTORY_SOURCES } from '../../history/import/importedRecords';
import { LIMITS, type SearchQuery } from '../../history/historyRecord';
import { HistoryStore } from '../../history/historyStore';
import { tandemPaths } from '../../settings/paths';
import { HISTORY_USAGE, parseHistoryArguments, type HistoryArguments } from './historyArguments';
import { importLine, recordJson, recordTable, statsJson, statsText } from './historyText';

export interface HistoryIo {
  env: NodeJS.ProcessEnv;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream;
}

const OK = 0;
const NOTHING_FOUND = 1;
const FAILED = 2;
/** How many of the records a forget would delete it shows before asking. */
const PREVIEW = 10;

/** `tandem history …`: resolves with the exit status (0 done, 1 nothing found, 2 usage error or an unusable database). */
export async function runHistoryCommand(argv: readonly string[], io: HistoryIo): Promise<number> {
  const parsed = parseHistoryArguments(argv);
  if (parsed.kind === 'help') {
    io.stdout.write(`${HISTORY_USAGE}\n`);
    return OK;
  }
  if (parsed.kind === 'error') {
    io.stderr.write(`tandem: ${parsed.message}\n${HISTORY_USAGE}\n`);
    return FAILED;
  }
  const store = await HistoryStore.open({ file: tandemPaths(io.env).historyFile, report: (message) => io.stderr.write(`tandem: ${message}\n`) });
  try {
    return await run(parsed, store, io);
  } finally {
    store.close();
  }
}

async function run(command: Exclude<HistoryArguments, { kind: 'help' | 'error' }>, store: HistoryStore, io: HistoryIo): Promise<number> {
  const fail = (error: string) => {
    io.stderr.write(`tandem: ${error}\n`);
    return FAILED;
  };
  switch (command.kind) {
    case 'search': {
      const found = await store.search(command.query);
      if (!found.ok) return fail(found.error);
      if (found.value.length === 0) {
        if (!command.json) io.stderr.write(`tandem: ${await nothingFoundText(store, command.query)}\n`);
        return NOTHING_FOUND;
      }
      if (command.json) io.stdout.write(found.value.map((record) => `${recordJson(record)}\n`).join(''));
      else io.stdout.write(`${recordTable(found.value, io.env.HOME, io.stdout.isTTY ? io.stdout.columns : undefined)}\n`);
      return OK;
    }
    case 'forget-ids': {
      const forgotten = await store.forget({ ids: command.ids });
      if (!forgotten.ok) return fail(forgotten.error);
      io.stdout.write(`forgot ${plural(forgotten.value, 'record')}\n`);
      if (forgotten.value < command.ids.length) io.stderr.write(`tandem: ${plural(command.ids.length - forgotten.value, 'id')} matched no record\n`);
      return forgotten.value ? OK : NOTHING_FOUND;
    }
    case 'forget-query':
      return forgetSearch(command.query, command.yes, store, io, fail);
    case 'import':
      return importCommand(command, store, io, fail);
    case 'stats': {
      const stats = await store.stats();
      if (!stats.ok) return fail(stats.error);
      io.stdout.write(`${command.json ? statsJson(stats.value) : statsText(stats.value)}\n`);
      return OK;
    }
  }
}

/** Shows what a search-forget would delete and asks; without a terminal to ask on, only --yes deletes. */
async function forgetSearch(query: SearchQuery, yes: boolean, store: HistoryStore, io: HistoryIo, fail: (error: string) => number): Promise<number> {
  const found = await store.search({ ...query, limit: LIMITS.searchLimit });
  if (!found.ok) return fail(found.error);
  const count = found.value.length;
  if (count === 0) {
    io.stderr.write('tandem: no record matches; nothing was forgotten\n');
    return NOTHING_FOUND;
  }
  const many = count === LIMITS.searchLimit ? `at least ${plural(count, 'record')}` : plural(count, 'record');
  if (!yes) {
    if (!io.stdin.isTTY) return fail(`this would forget ${many}; there is no terminal to ask on, so nothing was deleted (add --yes to forget them without asking)`);
    io.stderr.write(`${recordTable(found.value.slice(0, PREVIEW), io.env.HOME)}\n${count > PREVIEW ? `… and ${count - PREVIEW} more\n` : ''}`);
    if (!(await confirm(`Forget ${many}? [y/N] `, io))) {
      io.stderr.write('nothing was forgotten\n');
      return OK;
    }
  }
  const forgotten = await store.forget({ query });
  if (!forgotten.ok) return fail(forgotten.error);
  io.stdout.write(`forgot ${plural(forgotten.value, 'record')}\n`);
  return OK;
}


async function importCommand(command: Extract<HistoryArguments, { kind: 'import' }>, store: HistoryStore, io: HistoryIo, fail: (error: string) => number): Promise<number> {
  const reports = await importHistory(store, command, io.env);
  if (reports.length === 0) {
    const looked = (command.source ? [command.source] : HISTORY_SOURCES).flatMap((source) => defaultHistoryFiles(source, io.env)).join(', ');
    io.stderr.write(`tandem: no shell history found to import (looked for ${looked}); name one: tandem history import zsh FILE\n`);
    return NOTHING_FOUND;
  }
  for (const report of reports) {
    if (report.error !== undefined && report.stored + report.duplicates === 0) io.stderr.write(`tandem: ${importLine(report)}\n`);
    else io.stdout.write(`${importLine(report)}\n`);
  }
  const missing = reports.every((report) => report.error !== undefined && report.stored + report.duplicates === 0);
  if (missing && reports.some((report) => report.error?.startsWith('there is no file'))) return NOTHING_FOUND;
  return reports.some((report) => report.error !== undefined) ? fail('some history could not be imported (see above)') : OK;
}

async function nothingFoundText(store: HistoryStore, query: SearchQuery): Promise<string> {
  if (Object.keys(query).length > 0) return 'no command in the history matches';
  const stats = await store.stats();
  return stats.ok && stats.value.records === 0 ? 'the history is empty (`tandem history import` brings in your shell’s own history)' : 'no command in the history matches';
}

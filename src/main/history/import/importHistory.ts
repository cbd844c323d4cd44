import { readFileSync, realpathSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import type { HistoryStore } from '../historyStore';
import { LIMITS, type BlockRecord } from '../historyRecord';
import { detectHistoryFile, parseHistoryFile } from './historySources';
import { HISTORY_SOURCES, importedRecords, type HistorySource } from './importedRecords';

export interface ImportRequest {
  /** One source, or every source whose default file exists. */
  source?: HistorySource;
  /** A file in that source's format instead of its default one. */
  file?: string;
}

/** What importing one history file did. */
export interface SourceReport {
  source: HistorySource;
  file: string;
  /** Entries read from the file. */
  found: number;
  stored: number;
  /** Already in the history (imported before). */
  duplicates: number;
  /** Lines or rows that could not be read, and commands over the size limit. */
  skipped: number;
  firstSkippedLine?: number;
  /** Why nothing was imported from it (missing, unreadable, refused by the store). */
  error?: string;
}

/**
 * `tandem history import`: reads each requested history file, turns its entries into imported
 * block records (importedRecords.ts) and stores them. Sources are stored one after another,
 * the one with the newest command first, each newest first: the store gives imported records ids
 * below everything it has, so this keeps ids in time order as far as the sources do not overlap.
 * Never throws: a source that fails is reported with its reason and the others still run.
 */
export async function importHistory(store: HistoryStore, request: ImportRequest, env: NodeJS.ProcessEnv, host = hostname()): Promise<SourceReport[]> {
  const wanted = request.source ? [request.source] : HISTORY_SOURCES;
  const reports: SourceReport[] = [];
  const pending: { report: SourceReport; records: BlockRecord[] }[] = [];
  for (const source of wanted) {
    const file = request.file ? resolve(request.file) : detectHistoryFile(source, env);
    if (file === undefined) continue;
    const report: SourceReport = { source, file, found: 0, stored: 0, duplicates: 0, skipped: 0 };
    reports.push(report);
    try {
      const real = realpathSync(file);
      const parsed = parseHistoryFile(source, real, () => readFileSync(real));
      const { records, tooLong } = importedRecords(parsed.entries, { source, file: real, modifiedAt: statSync(real).mtimeMs, host });
      Object.assign(report, { found: parsed.entries.length + parsed.skipped, skipped: parsed.skipped + tooLong });
      if (parsed.firstSkipped !== undefined) report.firstSkippedLine = parsed.firstSkipped;
      pending.push({ report, records: records.sort((a, b) => b.startedAt - a.startedAt) });
    } catch (error) {
      report.error = readError(source, file, error as NodeJS.ErrnoException);
    }
  }
  pending.sort((a, b) => (b.records[0]?.startedAt ?? 0) - (a.records[0]?.startedAt ?? 0));
  for (const { report, records } of pending) await storeRecords(store, report, records);
  return reports;
}

async function storeRecords(store: HistoryStore, report: SourceReport, records: BlockRecord[]): Promise<void> {
  for (let at = 0; at < records.length; at += LIMITS.batchRecords) {
    const outcome = await store.record(records.slice(at, at + LIMITS.batchRecords));
    if (!outcome.ok) {
      report.error = `stopped after ${report.stored + report.duplicates} of ${records.length} records: ${outcome.error}`;
      return;
    }
    report.stored += outcome.value.stored;
    report.duplicates += outcome.value.duplicates;
    report.skipped += outcome.value.rejected.length;
  }
}

function readError(source: HistorySource, file: string, error: NodeJS.ErrnoException): string {
  if (error.code === 'ENOENT') return `there is no file ${file}`;
  if (error.code === 'EISDIR') return `${file} is a folder, not a ${source} history file`;
  if (source === 'atuin') return `${file} cannot be read as an atuin database: ${error.message}`;
  return `${file} cannot be read: ${error.message}`;
}

import { formatCount, plural } from '../../../shared/countWords';
import type { HistoryStats, StoredRecord } from '../../history/historyRecord';
import type { SourceReport } from '../../history/import/importHistory';
import { duration, localTime } from '../traceText';

/** How `tandem history` prints: a table for people, one JSON object a line for scripts. */

/** A record as a line of `--json`: the fields scripts read, in snake_case. */
export function recordJson(record: StoredRecord): string {
  return JSON.stringify({
    id: record.id,
    command: record.command,
    cwd: record.cwd,
    exit_code: record.exitCode,
    duration_ms: record.durationMs,
    started_at: new Date(record.startedAt).toISOString(),
    host: record.host,
    shell: record.shell,
    pane: record.pane,
    session: record.session,
    author: record.author,
    imported: record.imported,
  });
}

/** One row a record, newest first: id, when, exit code, duration, directory, command. `width` cuts rows for a terminal. */
export function recordTable(records: readonly StoredRecord[], home: string | undefined, width?: number): string {
  const rows = records.map((record) => [
    String(record.id),
    localTime(new Date(record.startedAt).toISOString()).slice(0, 16),
    record.exitCode === null ? '-' : String(record.exitCode),
    record.durationMs === null ? '-' : duration(record.durationMs),
    record.cwd === null ? '-' : shortPath(record.cwd, home),
    oneLine(record.command) + (record.author === 'you' ? '' : `  (${record.author})`),
  ]);
  const header = ['ID', 'WHEN', 'EXIT', 'TOOK', 'DIR', 'COMMAND'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  // The directory column is capped so the command keeps most of the line.
  widths[4] = Math.min(widths[4]!, 32);
  const line = (row: string[]) => {
    const cells = row.map((cell, column) => (column === 5 ? cell : fit(cell, widths[column]!, column === 4)));
    const text = cells.join('  ').trimEnd();
    return width && [...text].length > width ? `${[...text].slice(0, width - 1).join('')}…` : text;
  };
  return [line(header), ...rows.map(line)].join('\n');
}

function fit(cell: string, width: number, fromLeft: boolean): string {
  if (cell.length <= width) return /^-?\d/.test(cell) && !fromLeft ? cell.padStart(width) : cell.padEnd(width);
  return fromLeft ? `…${cell.slice(cell.length - width + 1)}` : `${cell.slice(0, width - 1)}…`;
}

/** A multi-line command on one row: its newlines shown as ⏎. */
function oneLine(command: string): string {
  return command.replace(/\r?\n/g, ' ⏎ ').replace(/[\x00-\x08\x0b-\x1f\x7f]/g, (c) => `^${String.fromCharCode(c.charCodeAt(0) ^ 0x40)}`);
}

function shortPath(path: string, home: string | undefined): string {
  if (home && (path === home || path.startsWith(`${home}/`))) return `~${path.slice(home.length)}`;
  return path;
}

export function statsText(stats: HistoryStats): string {
  const when = (at: number | null) => (at === null ? '-' : localTime(new Date(at).toISOString()));
  const authors = Object.entries(stats.byAuthor)
    .filter(([, count]) => count > 0)
    .map(([author, count]) => `${author} ${formatCount(count)}`)
    .join(', ');
  return [
    `records   ${formatCount(stats.records)} (${formatCount(stats.imported)} imported)`,
    `by        ${authors || '-'}`,
    `oldest    ${when(stats.oldestStartedAt)}`,
    `newest    ${when(stats.newestStartedAt)}`,
    `file      ${stats.file} (${megabytes(stats.bytes)}, schema ${stats.schemaVersion})`,
  ].join('\n');
}

export function statsJson(stats: HistoryStats): string {
  return JSON.stringify({
    file: stats.file,
    schema_version: stats.schemaVersion,
    records: stats.records,
    imported: stats.imported,
    by_author: stats.byAuthor,
    oldest_started_at: stats.oldestStartedAt === null ? null : new Date(stats.oldestStartedAt).toISOString(),
    newest_started_at: stats.newestStartedAt === null ? null : new Date(stats.newestStartedAt).toISOString(),
    bytes: stats.bytes,
  });
}

function megabytes(bytes: number): string {
  return bytes < 1_048_576 ? `${(bytes / 1024).toFixed(0)} KiB` : `${(bytes / 1_048_576).toFixed(1)} MiB`;
}

/** "zsh  /home/me/.zsh_history: 1,204 imported, 3 already there, 2 skipped (the first at line 17)". */
export function importLine(report: SourceReport): string {
  const head = `${report.source.padEnd(5)}  ${report.file}`;
  if (report.error && report.stored + report.duplicates === 0) return `${head}: not imported: ${report.error}`;
  const parts = [`${formatCount(report.stored)} imported`];
  if (report.duplicates) parts.push(`${formatCount(report.duplicates)} already there`);
  if (report.skipped) parts.push(`${plural(report.skipped, 'entry', 'entries')} skipped${report.firstSkippedLine === undefined ? '' : ` (the first at ${report.source === 'atuin' ? 'row' : 'line'} ${report.firstSkippedLine})`}`);
  return `${head}: ${parts.join(', ')}${report.error ? `; ${report.error}` : ''}`;
}

import { createHash } from 'node:crypto';
import { scrubSecrets } from '../../safety/secrets/scrub';
import { LIMITS, type BlockRecord } from '../historyRecord';
import type { HistoryEntry } from './historyEntry';

export const HISTORY_SOURCES = ['bash', 'zsh', 'fish', 'atuin'] as const;
export type HistorySource = (typeof HISTORY_SOURCES)[number];

export interface ImportContext {
  source: HistorySource;
  /** The history file, as an absolute path with links resolved: part of every record's key. */
  file: string;
  /** When the file was last written (ms): the newest an entry without a time can be. */
  modifiedAt: number;
  /** This machine's name, for entries whose format does not record one. */
  host: string;
}

/**
 * Block records for the entries of one history file: marked imported, by "you" unless the source
 * says an agent ran it, with every command and cwd scrubbed of secrets. Entries without a time
 * get one that keeps the file's order: just before the next entry that has one (or the file's
 * last write), a millisecond apart. Each key is a hash of the source, the file, the entry's time
 * (or that it had none), its scrubbed command and how many identical entries came before it, so
 * the same file imported again, or after the shell appended to it, stores nothing twice. Over-long
 * commands are returned in `tooLong`, not as records.
 */
export function importedRecords(entries: readonly HistoryEntry[], context: ImportContext): { records: BlockRecord[]; tooLong: number } {
  const times = fillTimes(entries, context.modifiedAt);
  const seen = new Map<string, number>();
  const records: BlockRecord[] = [];
  let tooLong = 0;
  entries.forEach((entry, index) => {
    const command = scrubSecrets(entry.command).text;
    if (command.length > LIMITS.commandChars) {
      tooLong++;
      return;
    }
    const identity = entry.sourceId ?? `${entry.startedAt ?? 'untimed'}\0${command}`;
    const occurrence = seen.get(identity) ?? 0;
    seen.set(identity, occurrence + 1);
    const startedAt = times[index]!;
    const record: BlockRecord = {
      key: recordKey(context, identity, occurrence),
      command,
      host: (entry.host ?? context.host).slice(0, LIMITS.textChars) || context.host,
      shell: entry.shell ?? (context.source === 'atuin' ? null : context.source),
      // Entries of one shell file are one session, so "the commands around it" are its neighbours in the file.
      session: entry.session ?? `${context.source}:${context.file}`.slice(0, LIMITS.textChars),
      startedAt,
      author: entry.byAgent ? 'agent-step' : 'you',
      imported: true,
    };
    if (entry.cwd !== undefined) record.cwd = scrubSecrets(entry.cwd).text.slice(0, LIMITS.textChars);
    if (entry.durationMs !== undefined) {
      record.durationMs = entry.durationMs;
      record.endedAt = startedAt + entry.durationMs;
    }
    if (entry.exitCode !== undefined) record.exitCode = entry.exitCode;
    records.push(record);
  });
  return { records, tooLong };
}

function recordKey(context: ImportContext, identity: string, occurrence: number): string {
  const hash = createHash('sha256').update(`${context.source}\0${context.source === 'atuin' ? '' : context.file}\0${identity}\0${occurrence}`).digest('hex');
  return `import:${context.source}:${hash}`;
}

/** Real times where the entries have them; for the others, 1 ms apart just before the next known time. */
export function fillTimes(entries: readonly HistoryEntry[], modifiedAt: number): number[] {
  const times = new Array<number>(entries.length);
  let next = Math.max(0, Math.floor(modifiedAt));
  let gap = 0;
  for (let index = entries.length - 1; index >= 0; index--) {
    const known = entries[index]!.startedAt;
    if (known !== undefined) {
      times[index] = known;
      next = known;
      gap = 0;
    } else {
      gap++;
      times[index] = Math.max(0, next - gap);
    }
  }
  return times;
}

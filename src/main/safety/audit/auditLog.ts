import { appendFile, chmod, mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { auditEntrySchema, formatAuditLine, GENESIS_HASH, hashLine, type AuditRecord } from './auditEntry';
import { readAuditHead, writeAuditHead } from './auditHead';
import { readLines, readLogTail, type LogTail } from './auditLines';
import { acquireFileLock, FileLockNotTaken, type FileLockOptions } from './auditLock';
import { plural } from '../../../shared/countWords';

export interface AuditLogOptions {
  /** Called for every failed write. The log never throws at its callers: an audit failure must not stop the terminal. */
  onError?: (error: Error) => void;
  /** How long an append waits for another process's lock, and when a lock counts as left behind. */
  lock?: FileLockOptions;
}

/** Where the chain continues: what the next line needs, and what the file looked like when we last touched it. */
interface ChainEnd {
  nextSeq: number;
  prev: string;
  /** The file's size after our last write; a different size means someone else wrote (or cut) it. */
  size: number;
  /** The file ends in the middle of a line, so the next write starts with `\n`. */
  needsNewline: boolean;
  /** Damage found when the file was opened, recorded as `tamper` entries by the next write. */
  damage: string[];
}

/**
 * The agent's audit trail: an append-only JSONL file in which every line carries the sha256 of
 * the line before it, plus `audit.head` holding the seq and hash of the last line. Appends are
 * serialised through one promise chain, so concurrent callers keep their order, and across
 * processes by a lock file next to the log (`audit.jsonl.lock`): under it an append reads the
 * chain's end, writes its line and the head, so any number of processes write one chain.
 */
export class AuditLog {
  private queue: Promise<void> = Promise.resolve();
  private end: ChainEnd | undefined;
  private failure: Error | undefined;
  private readonly lockFile: string;

  constructor(
    readonly file: string,
    readonly headFile: string,
    private readonly options: AuditLogOptions = {},
  ) {
    this.lockFile = `${file}.lock`;
  }

  /** The most recent write error, if any. */
  get lastError(): Error | undefined {
    return this.failure;
  }

  /** Resolves once the record is on disk, or once its failure was recorded; never rejects. */
  append(record: AuditRecord): Promise<void> {
    const ts = new Date().toISOString();
    const written = this.queue.then(() => this.write(record, ts)).catch((error: unknown) => this.recordFailure(error));
    this.queue = written;
    return written;
  }

  /** Resolves when every append so far is on disk (or has failed). */
  flush(): Promise<void> {
    return this.queue;
  }

  private async write(record: AuditRecord, ts: string): Promise<void> {
    const lock = await acquireFileLock(this.lockFile, this.options.lock).catch((error: Error) => error);
    try {
      await this.writeLocked(record, ts);
    } finally {
      if (!(lock instanceof Error)) await lock.release().catch((error: unknown) => this.report(error));
    }
    // Reported only for an entry that landed: when the write failed as well, its error says more.
    if (lock instanceof Error) this.report(new FileLockNotTaken(`${lock.message}; the entry was appended without it`));
  }

  private async writeLocked(record: AuditRecord, ts: string): Promise<void> {
    const end = await this.chainEnd();
    const records: { record: AuditRecord; ts: string }[] = end.damage.map((reason) => ({
      record: { event: 'tamper', reason },
      ts: new Date().toISOString(),
    }));
    records.push({ record, ts });
    let { nextSeq, prev } = end;
    let text = end.needsNewline ? '\n' : '';
    for (const item of records) {
      const line = formatAuditLine(nextSeq, item.ts, prev, item.record);
      text += `${line}\n`;
      prev = hashLine(line);
      nextSeq++;
    }
    try {
      await appendFile(this.file, text, { mode: 0o600 });
    } catch (error) {
      // Part of the text may have landed: read the file again before the next write.
      this.end = undefined;
      throw error;
    }
    this.end = { nextSeq, prev, size: end.size + Buffer.byteLength(text), needsNewline: false, damage: [] };
    await writeAuditHead(this.headFile, { seq: nextSeq - 1, hash: prev });
  }

  /** The end of the chain, read from disk on first use and whenever another writer changed the file. */
  private async chainEnd(): Promise<ChainEnd> {
    if (this.end && (await fileSize(this.file)) === this.end.size) return this.end;
    this.end = await this.openChain();
    return this.end;
  }

  private async openChain(): Promise<ChainEnd> {
    // The head first: a writer puts the line before the head, so a head read first is never ahead of the log.
    const head = await readAuditHead(this.headFile);
    await mkdir(dirname(this.file), { recursive: true, mode: 0o700 });
    let tail: LogTail | undefined;
    try {
      tail = await readLogTail(this.file);
      await chmod(this.file, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const damage = head.kind === 'invalid' ? [head.problem] : [];
    const recordedSeq = head.kind === 'ok' ? head.head.seq : 0;
    if (!tail?.lastLine) {
      if (recordedSeq > 0) damage.push(`the log was ${tail ? 'empty' : 'missing'} but ${this.headFile} recorded ${plural(recordedSeq, 'entry', 'entries')}`);
      return { nextSeq: 1, prev: GENESIS_HASH, size: tail?.size ?? 0, needsNewline: false, damage };
    }
    const prev = hashLine(tail.lastLine);
    const needsNewline = !tail.endsWithNewline;
    const lastSeq = validSeq(tail.lastLine);
    if (lastSeq === undefined) {
      damage.push(`the last line of the log is not a valid entry${needsNewline ? ' (it was cut off)' : ''}`);
      return { nextSeq: (await countLines(this.file)) + 1, prev, size: tail.size, needsNewline, damage };
    }
    if (head.kind === 'ok') {
      if (head.head.seq > lastSeq) {
        damage.push(`the log ends at entry ${lastSeq} but ${this.headFile} recorded ${head.head.seq} (lines were removed from the end)`);
      } else if (head.head.seq === lastSeq && head.head.hash !== prev) {
        damage.push(`entry ${lastSeq} differs from the one recorded in ${this.headFile} (it was edited)`);
      }
    }
    return { nextSeq: lastSeq + 1, prev, size: tail.size, needsNewline, damage };
  }

  private recordFailure(error: unknown): void {
    this.failure = error instanceof Error ? error : new Error(String(error));
    this.report(this.failure);
  }

  private report(error: unknown): void {
    try {
      this.options.onError?.(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // A failing error handler must not break the queue.
    }
  }
}

/** The seq of a line that is a complete, valid entry. */
function validSeq(line: Buffer): number | undefined {
  try {
    const parsed = auditEntrySchema.safeParse(JSON.parse(line.toString('utf8')));
    return parsed.success ? parsed.data.seq : undefined;
  } catch {
    return undefined;
  }
}

async function countLines(path: string): Promise<number> {
  let count = 0;
  for await (const _line of readLines(path)) count++;
  return count;
}

async function fileSize(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch {
    return -1;
  }
}

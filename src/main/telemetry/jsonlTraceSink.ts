import { appendFile, mkdir, open, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { SpanRecord, SpanSink } from './span';

/** Finished spans wait this long to be written together, off the keystroke and output paths. */
const BATCH_MS = 200;
const DAY_MS = 86_400_000;

export interface JsonlTraceSinkOptions {
  file: string;
  /** Lines whose span ended longer ago than this are trimmed, once, before this process first writes. */
  retainDays: number;
  /** Only a process that started its own trace trims (a child's rewrite could drop its parent's concurrent lines). */
  trims: boolean;
  onError(error: Error): void;
}

/** `traces.jsonl`: one line per finished span, appended in batches. */
export class JsonlTraceSink implements SpanSink {
  private lines: string[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private prepared: Promise<void> | undefined;

  constructor(private readonly options: JsonlTraceSinkOptions) {}

  write(record: SpanRecord): void {
    this.lines.push(`${JSON.stringify(record)}\n`);
    if (this.timer) return;
    this.timer = setTimeout(() => void this.flush(), BATCH_MS);
    this.timer.unref();
  }

  /** Writes what is waiting; resolves when everything handed over so far is in the file. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.lines.join('');
    this.lines = [];
    if (batch) this.writing = this.writing.then(() => this.append(batch));
    return this.writing;
  }

  private async append(batch: string): Promise<void> {
    try {
      this.prepared ??= this.prepare();
      await this.prepared;
      await appendFile(this.options.file, batch, { mode: 0o600 });
    } catch (error) {
      this.options.onError(error as Error);
    }
  }

  private async prepare(): Promise<void> {
    await mkdir(dirname(this.options.file), { recursive: true, mode: 0o700 });
    if (this.options.trims) await trimOlderThan(this.options.file, Date.now() - this.options.retainDays * DAY_MS);
  }
}

/**
 * Drops the lines of spans that ended before `cutoff`. Lines are appended in time order, so a
 * file whose first line is recent is left alone without reading the rest.
 */
export async function trimOlderThan(file: string, cutoff: number): Promise<void> {
  if (!(await firstLineOlder(file, cutoff))) return;
  const kept = (await readFile(file, 'utf8'))
    .split('\n')
    .filter((line) => line.trim() && !(endOf(line) < cutoff))
    .map((line) => `${line}\n`)
    .join('');
  const temporary = `${file}.${process.pid}.trim`;
  await writeFile(temporary, kept, { mode: 0o600 });
  await rename(temporary, file);
}

async function firstLineOlder(file: string, cutoff: number): Promise<boolean> {
  const handle = await open(file, 'r').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (!handle) return false;
  try {
    const { buffer, bytesRead } = await handle.read({ buffer: Buffer.alloc(8_192), position: 0 });
    const first = buffer.subarray(0, bytesRead).toString('utf8').split('\n')[0] ?? '';
    // A first line longer than the chunk cannot be judged from it: read the whole file.
    return !first.endsWith('}') || endOf(first) < cutoff;
  } finally {
    await handle.close();
  }
}

/** When a line's span ended (NaN for a line that is not a span: it is kept). */
function endOf(line: string): number {
  try {
    return Date.parse((JSON.parse(line) as { end?: string }).end ?? '');
  } catch {
    return Number.NaN;
  }
}

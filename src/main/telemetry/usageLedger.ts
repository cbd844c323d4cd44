import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { costUsd } from '../agent/modelPrices';

/** One model request as the traces file recorded it (a `chat {model}` span). */
export interface UsageEntry {
  /** When the request started. */
  at: Date;
  model: string;
  /** panel, auto, headless, child, summarizer; `unknown` for spans written before sources were recorded. */
  source: string;
  inputTokens: number;
  outputTokens: number;
  /** Undefined: the model has no price (cost unknown). */
  costUsd: number | undefined;
  pid: number;
  host: string;
}

/**
 * The model requests in a traces file (`$XDG_STATE_HOME/tandem/traces.jsonl`) that started at
 * or after `since`; undefined when there is no file. Lines that are not spans are skipped (a
 * line cut short by a crash must not hide the rest).
 */
export async function readUsageEntries(file: string, options: { since: Date }): Promise<UsageEntry[] | undefined> {
  const read = await readUsageFrom(file, options.since, 0);
  if (!read) return undefined;
  // A last line without its newline (written by hand, say) counts here too.
  const last = usageEntryOf(read.rest);
  return last && last.at >= options.since ? [...read.entries, last] : read.entries;
}

/**
 * The same from byte `fromByte` on, reading whole lines only: `endByte` is where the next
 * read goes on (a line still being written is read then; `rest` is what there is of it). Lines that started before `since`
 * are passed over without being parsed.
 */
export async function readUsageFrom(file: string, since: Date, fromByte: number): Promise<{ entries: UsageEntry[]; endByte: number; rest: string } | undefined> {
  const exists = await stat(file).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return false;
      throw error;
    },
  );
  if (!exists) return undefined;
  const sinceIso = since.toISOString();
  const entries: UsageEntry[] = [];
  let endByte = fromByte;
  let partial: Buffer = Buffer.alloc(0);
  for await (const chunk of createReadStream(file, { start: fromByte }) as AsyncIterable<Buffer>) {
    let data: Buffer = partial.length ? Buffer.concat([partial, chunk]) : chunk;
    let newline: number;
    while ((newline = data.indexOf(10)) >= 0) {
      const line = data.subarray(0, newline).toString('utf8');
      endByte += newline + 1;
      data = data.subarray(newline + 1);
      const started = START.exec(line)?.[1];
      if (started !== undefined && started < sinceIso) continue;
      const entry = usageEntryOf(line);
      if (entry && entry.at >= since) entries.push(entry);
    }
    partial = data;
  }
  return { entries, endByte, rest: partial.toString('utf8') };
}

/** A span line's `start` (ISO 8601 in UTC, so it compares as text). */
const START = /"start":"([^"]+)"/;

export function usageEntryOf(line: string): UsageEntry | undefined {
  if (!line.startsWith('{')) return undefined;
  let record: { start?: unknown; pid?: unknown; host?: unknown; attributes?: Record<string, unknown> };
  try {
    record = JSON.parse(line) as typeof record;
  } catch {
    return undefined;
  }
  const attributes = record.attributes;
  if (!attributes || attributes['gen_ai.operation.name'] !== 'chat' || typeof record.start !== 'string') return undefined;
  const inputTokens = attributes['gen_ai.usage.input_tokens'];
  const outputTokens = attributes['gen_ai.usage.output_tokens'];
  // A request that failed or was cancelled used no tokens that were counted.
  if (typeof inputTokens !== 'number' || typeof outputTokens !== 'number') return undefined;
  const model = typeof attributes['gen_ai.request.model'] === 'string' ? attributes['gen_ai.request.model'] : 'unknown';
  const recorded = attributes['tandem.cost_usd'];
  const at = new Date(record.start);
  if (Number.isNaN(at.getTime())) return undefined;
  return {
    at,
    model,
    source: typeof attributes['tandem.source'] === 'string' ? attributes['tandem.source'] : 'unknown',
    inputTokens,
    outputTokens,
    // Spans from before costs were recorded are priced from the table; a model it does not know stays unknown.
    costUsd: typeof recorded === 'number' ? recorded : costUsd(model, { inputTokens, outputTokens }),
    pid: typeof record.pid === 'number' ? record.pid : 0,
    host: typeof record.host === 'string' ? record.host : '',
  };
}

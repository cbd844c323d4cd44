import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
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
  const exists = await stat(file).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return false;
      throw error;
    },
  );
  if (!exists) return undefined;
  const input = createReadStream(file, { encoding: 'utf8' });
  const entries: UsageEntry[] = [];
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    const entry = usageEntryOf(line);
    if (entry && entry.at >= options.since) entries.push(entry);
  }
  return entries;
}

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

import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import type { SpanRecord } from './span';

/** The fields every span line has (jsonlTraceSink.ts); anything else on the line is kept as it is. */
const SpanLineSchema = z
  .object({
    trace_id: z.string().regex(/^[0-9a-f]{32}$/),
    span_id: z.string().regex(/^[0-9a-f]{16}$/),
    parent_span: z.string().regex(/^[0-9a-f]{16}$/).nullable(),
    name: z.string(),
    pid: z.number().int(),
    host: z.string(),
    start: z.string().refine((text) => !Number.isNaN(Date.parse(text))),
    end: z.string().refine((text) => !Number.isNaN(Date.parse(text))),
    duration_ms: z.number(),
    status: z.enum(['ok', 'error']),
    attributes: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  })
  .passthrough();

export interface SpanRecords {
  records: SpanRecord[];
  /** Lines that are not a span (cut short, hand-edited, not JSON): skipped and counted, never fatal. */
  corrupt: number;
  /** The 1-based number of the first of them, to look at. */
  firstCorruptLine?: number;
}

export interface ReadSpanOptions {
  /** Only spans that ended at or after this time (ms since the epoch). */
  since?: number;
}

/**
 * The spans in a `traces.jsonl` file, in file order, read line by line (the file may be large).
 * A file that does not exist rejects with ENOENT, for the caller to say so.
 */
export async function readSpanRecords(file: string, options: ReadSpanOptions = {}): Promise<SpanRecords> {
  const stream = createReadStream(file, { encoding: 'utf8' });
  const opened = new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', reject);
  });
  await opened;
  const result: SpanRecords = { records: [], corrupt: 0 };
  let lineNumber = 0;
  for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) {
    lineNumber++;
    if (!line.trim()) continue;
    const record = parseSpanLine(line);
    if (!record) {
      result.corrupt++;
      result.firstCorruptLine ??= lineNumber;
      continue;
    }
    if (options.since !== undefined && Date.parse(record.end) < options.since) continue;
    result.records.push(record);
  }
  return result;
}

function parseSpanLine(line: string): SpanRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  const parsed = SpanLineSchema.safeParse(value);
  return parsed.success ? (parsed.data as SpanRecord) : undefined;
}

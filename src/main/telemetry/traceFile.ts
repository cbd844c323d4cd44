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

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * `--since`: a span of time back from `now` (`30m`, `12h`, `7d`, `2w`) or a date (`2026-11-01`,
 * an ISO time). Undefined when it is neither.
 */
export function parseSince(text: string, now = Date.now()): number | undefined {
  const relative = /^(\d+)\s*([mhdw])$/.exec(text.trim());
  if (relative) return now - Number(relative[1]) * UNIT_MS[relative[2]!]!;
  if (!/^\d{4}-\d{2}-\d{2}/.test(text.trim())) return undefined;
  const at = Date.parse(text.trim());
  return Number.isNaN(at) ? undefined : at;
}

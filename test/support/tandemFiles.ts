import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A file of the test home's Tandem config folder (`config.toml`, `policy.toml` …). */
export function writeTandemFile(env: NodeJS.ProcessEnv, name: string, text: string): void {
  const dir = join(env.XDG_CONFIG_HOME!, 'tandem');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), text);
}

/** The test home's `traces.jsonl`. */
export const traceFile = (env: NodeJS.ProcessEnv): string => join(env.XDG_STATE_HOME!, 'tandem', 'traces.jsonl');

/** A line of `traces.jsonl` (jsonlTraceSink.ts), with the seed's fields beside the ids. */
export type SpanLine = { trace_id: string; span_id: string; parent_span: string | null; name: string; pid: number; attributes: Record<string, unknown> } & Record<string, unknown>;

export function readSpanLines(env: NodeJS.ProcessEnv): SpanLine[] {
  return readFileSync(traceFile(env), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as SpanLine);
}

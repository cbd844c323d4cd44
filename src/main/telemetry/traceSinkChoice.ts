import { isAbsolute } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Where this process's finished spans go besides OTLP: a JSONL file, or a `tandem agent` run's own event stream. */
export type TraceSinkChoice = { kind: 'file'; file: string; problem?: string } | { kind: 'stdout' };

/**
 * `TANDEM_TRACE_SINK` (the seed's §10.4): unset or `file` — the default traces.jsonl;
 * `file:///abs/path.jsonl` (or a bare absolute path) — that file; `stdout` — the run's event
 * stream, for a parent that reads it to aggregate. Anything else keeps the default file and says why.
 */
export function traceSinkChoice(value: string | undefined, defaultFile: string): TraceSinkChoice {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'file') return { kind: 'file', file: defaultFile };
  if (text === 'stdout') return { kind: 'stdout' };
  if (isAbsolute(text)) return { kind: 'file', file: text };
  if (text.startsWith('file:')) {
    try {
      return { kind: 'file', file: fileURLToPath(text) };
    } catch (error) {
      return { kind: 'file', file: defaultFile, problem: `TANDEM_TRACE_SINK=${text} is not a file:// URL of an absolute path (${(error as Error).message}); spans go to ${defaultFile}.` };
    }
  }
  return { kind: 'file', file: defaultFile, problem: `TANDEM_TRACE_SINK=${text} is not a sink Tandem has (stdout, file, or file:///path); spans go to ${defaultFile}.` };
}

/** The `TANDEM_TRACE_SINK` a step's shell gets: the file this process writes (or would, when its spans go to its stream). */
export function sinkForChildren(file: string): string {
  return pathToFileURL(file).href;
}

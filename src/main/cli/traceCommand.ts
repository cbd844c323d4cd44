import { plural } from '../../shared/countWords';
import { tandemPaths } from '../settings/paths';
import type { SpanRecord } from '../telemetry/span';
import { readSpanRecords, type SpanRecords } from '../telemetry/traceFile';
import { parseSince } from '../telemetry/sinceOption';
import { findTrace, groupByTrace, summarizeTrace, traceTree, type TraceNode, type TraceSummary } from '../telemetry/traceTree';
import { summaryLine, treeText } from './traceText';

export const TRACE_USAGE = `Usage:
  tandem trace list [--since 7d] [--json] [--file PATH …]
                       the recent traces, newest first: start, trace id, duration, result, steps,
                       tokens (and the instruction when [telemetry] include_content recorded it);
                       --since takes 30m, 12h, 7d, 2w or a date (default 7d)
  tandem trace show TRACE-ID [--json] [--file PATH …]
                       one trace as a tree (a unique prefix of the id will do): the agent's runs,
                       their model requests and steps, child agents in other processes
  The file is $XDG_STATE_HOME/tandem/traces.jsonl unless --file names others (given more than
  once, the files are read together: copies from the hosts a trace crossed make one tree).`;

export interface TraceOutcome {
  stdout: string;
  stderr: string;
  exitCode: number;
}

type TraceArguments =
  | { kind: 'list'; since: number; json: boolean; files: string[] }
  | { kind: 'show'; traceId: string; json: boolean; files: string[] }
  | { kind: 'help' }
  | { kind: 'error'; message: string };

const DEFAULT_SINCE = '7d';

export function parseTraceArguments(argv: string[], now = Date.now()): TraceArguments {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') return { kind: 'help' };
  if (sub !== 'list' && sub !== 'show') return { kind: 'error', message: `Unknown trace command "${sub}"; try \`tandem trace list\` or \`tandem trace show TRACE-ID\`.` };
  let json = false;
  const files: string[] = [];
  let since = (parseSince(DEFAULT_SINCE, new Date(now)) as Date).getTime();
  const ids: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => inline ?? rest[++i];
    if (flag === '--json') json = true;
    else if (flag === '--file') {
      const file = value();
      if (!file) return { kind: 'error', message: '--file needs a path.' };
      files.push(file);
    } else if (flag === '--since' && sub === 'list') {
      const text = value() ?? '';
      const parsed = parseSince(text, new Date(now));
      if ('error' in parsed) return { kind: 'error', message: parsed.error };
      since = parsed.getTime();
    } else if (flag.startsWith('-')) return { kind: 'error', message: `Unknown option "${arg}" for tandem trace ${sub}.` };
    else ids.push(arg);
  }
  if (sub === 'list') return ids.length ? { kind: 'error', message: `tandem trace list takes no id ("${ids[0]}"); use tandem trace show ${ids[0]}.` } : { kind: 'list', since, json, files };
  if (ids.length !== 1 || !/^[0-9a-fA-F]+$/.test(ids[0]!)) return { kind: 'error', message: 'tandem trace show needs one trace id (or a prefix of it, in hex): tandem trace show 4bf92f35' };
  return { kind: 'show', traceId: ids[0]!, json, files };
}

/** `tandem trace …`: 0 when it printed what was asked, 1 when the file or the trace is not there, 2 for a bad command line. */
export async function runTraceCommand(argv: string[], env: NodeJS.ProcessEnv): Promise<TraceOutcome> {
  const parsed = parseTraceArguments(argv);
  if (parsed.kind === 'help') return { stdout: `${TRACE_USAGE}\n`, stderr: '', exitCode: 0 };
  if (parsed.kind === 'error') return { stdout: '', stderr: `tandem: ${parsed.message}\n${TRACE_USAGE}\n`, exitCode: 2 };
  const files = parsed.files.length ? parsed.files : [tandemPaths(env).traceFile];
  const read: SpanRecords = { records: [], corrupt: 0 };
  let skipped = '';
  for (const file of files) {
    let one: SpanRecords;
    try {
      one = await readSpanRecords(file, parsed.kind === 'list' ? { since: parsed.since } : {});
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const why = code === 'ENOENT' ? 'it does not exist yet (spans are written there once the agent runs with [telemetry] enabled)' : (error as Error).message;
      return { stdout: '', stderr: `tandem: no traces to read in ${file}: ${why}\n`, exitCode: 1 };
    }
    read.records.push(...one.records);
    read.corrupt += one.corrupt;
    if (one.corrupt) skipped += `tandem: skipped ${plural(one.corrupt, 'line')} of ${file} that ${one.corrupt === 1 ? 'is' : 'are'} not a span (the first is line ${one.firstCorruptLine})\n`;
  }
  const outcome = parsed.kind === 'list' ? list(read, parsed.json) : show(read, parsed.traceId, parsed.json, files.join(', '));
  return { ...outcome, stderr: skipped + outcome.stderr };
}

function list(read: SpanRecords, json: boolean): TraceOutcome {
  const summaries = [...groupByTrace(read.records)].map(([traceId, spans]) => summarizeTrace(traceId, spans)).sort((a, b) => Date.parse(b.start) - Date.parse(a.start));
  if (json) return { stdout: `${JSON.stringify({ traces: summaries.map(summaryJson), skipped_lines: read.corrupt })}\n`, stderr: '', exitCode: 0 };
  if (summaries.length === 0) return { stdout: 'no traces in that time\n', stderr: '', exitCode: 0 };
  return { stdout: `${summaries.map(summaryLine).join('\n')}\n`, stderr: '', exitCode: 0 };
}

function show(read: SpanRecords, prefix: string, json: boolean, file: string): TraceOutcome {
  const traces = groupByTrace(read.records);
  const found = findTrace(traces.keys(), prefix);
  if (found.kind === 'unknown') return { stdout: '', stderr: `tandem: no trace ${prefix} in ${file} (\`tandem trace list --since 30d\` lists the ones there)\n`, exitCode: 1 };
  if (found.kind === 'ambiguous') {
    const shown = found.matches.slice(0, 10).join('\n  ');
    return { stdout: '', stderr: `tandem: ${prefix} is the start of ${plural(found.matches.length, 'trace')}; give more of the id:\n  ${shown}\n`, exitCode: 1 };
  }
  const spans = traces.get(found.traceId)!;
  const summary = summarizeTrace(found.traceId, spans);
  const roots = traceTree(spans);
  if (json) return { stdout: `${JSON.stringify({ ...summaryJson(summary), spans: roots.map(nodeJson), skipped_lines: read.corrupt })}\n`, stderr: '', exitCode: 0 };
  return { stdout: `${treeText(summary, roots)}\n`, stderr: '', exitCode: 0 };
}

function summaryJson(summary: TraceSummary) {
  return {
    trace_id: summary.traceId,
    start: summary.start,
    duration_ms: summary.durationMs,
    result: summary.result,
    steps: summary.steps,
    steps_not_run: summary.notRun,
    tokens_in: summary.tokensIn,
    tokens_out: summary.tokensOut,
    processes: summary.processes,
    ...(summary.instruction !== undefined ? { instruction: summary.instruction } : {}),
  };
}

function nodeJson(node: TraceNode): SpanRecord & { other_process: boolean; children: unknown[] } {
  return { ...node.record, other_process: node.otherProcess, children: node.children.map(nodeJson) };
}

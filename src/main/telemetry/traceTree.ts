import type { SpanRecord } from './span';

/** A span with the spans whose parent it is, in start order. */
export interface TraceNode {
  record: SpanRecord;
  children: TraceNode[];
  /** Written by another process (or host) than its parent span: a child agent's root, say. */
  otherProcess: boolean;
}

/** One trace as `tandem trace list` shows it. */
export interface TraceSummary {
  traceId: string;
  start: string;
  /** From the first root's start to the last root's end. */
  durationMs: number;
  /** failed when a root failed; success when every root says so. */
  result: 'success' | 'failed' | 'unknown';
  /** execute_tool spans, in every process of the trace; `notRun` of them were denied, skipped or refused. */
  steps: number;
  notRun: number;
  tokensIn: number;
  tokensOut: number;
  /** How many processes (pid on host) wrote spans of it. */
  processes: number;
  /** The first root's instruction, only there when `include_content` recorded it. */
  instruction?: string;
}

const NOT_RUN = new Set(['denied', 'skipped', 'refused', 'proposed', 'approved']);

const operation = (record: SpanRecord) => record.attributes['gen_ai.operation.name'];
const processOf = (record: SpanRecord) => `${record.pid}@${record.host}`;
const byStart = (a: { start: string }, b: { start: string }) => Date.parse(a.start) - Date.parse(b.start);

export const isStep = (record: SpanRecord): boolean => operation(record) === 'execute_tool';
export const isChat = (record: SpanRecord): boolean => operation(record) === 'chat';
export const stepRan = (record: SpanRecord): boolean => !NOT_RUN.has(String(record.attributes['tandem.step.status'] ?? 'done'));

/** The spans of each trace, in the order the traces first appear. */
export function groupByTrace(records: readonly SpanRecord[]): Map<string, SpanRecord[]> {
  const traces = new Map<string, SpanRecord[]>();
  for (const record of records) {
    const spans = traces.get(record.trace_id);
    if (spans) spans.push(record);
    else traces.set(record.trace_id, [record]);
  }
  return traces;
}

/**
 * The trees of one trace's spans: its roots are the spans whose parent is not among them (a
 * root nobody started, or one that joined from a process whose spans are elsewhere). A span
 * caught in a parent cycle (a hand-edited file) is shown as a root rather than lost.
 */
export function traceTree(spans: readonly SpanRecord[]): TraceNode[] {
  const nodes = spans.map((record) => ({ record, children: [] as TraceNode[], otherProcess: false }));
  const bySpanId = new Map<string, TraceNode>();
  for (const node of nodes) if (!bySpanId.has(node.record.span_id)) bySpanId.set(node.record.span_id, node);
  const roots: TraceNode[] = [];
  for (const node of nodes) {
    const parent = node.record.parent_span ? bySpanId.get(node.record.parent_span) : undefined;
    if (parent && parent !== node) {
      node.otherProcess = processOf(parent.record) !== processOf(node.record);
      parent.children.push(node);
    } else roots.push(node);
  }
  const reached = new Set<TraceNode>();
  const visit = (node: TraceNode) => {
    reached.add(node);
    node.children.sort((a, b) => byStart(a.record, b.record));
    for (const child of node.children) if (!reached.has(child)) visit(child);
  };
  for (const root of roots) visit(root);
  for (const node of nodes) {
    if (reached.has(node)) continue;
    for (const other of nodes) other.children = other.children.filter((child) => child !== node);
    roots.push(node);
    visit(node);
  }
  return roots.sort((a, b) => byStart(a.record, b.record));
}

export function summarizeTrace(traceId: string, spans: readonly SpanRecord[]): TraceSummary {
  const roots = traceTree(spans).map((node) => node.record);
  const first = Math.min(...roots.map((record) => Date.parse(record.start)));
  const last = Math.max(...roots.map((record) => Date.parse(record.end)));
  const steps = spans.filter(isStep);
  const chats = spans.filter(isChat);
  const results = roots.map(rootResult);
  const instruction = roots.map((record) => record.instruction).find((text) => typeof text === 'string') as string | undefined;
  return {
    traceId,
    start: new Date(first).toISOString(),
    durationMs: last - first,
    result: results.includes('failed') ? 'failed' : results.every((result) => result === 'success') ? 'success' : 'unknown',
    steps: steps.length,
    notRun: steps.filter((record) => !stepRan(record)).length,
    tokensIn: sum(chats, 'tokens_in', 'gen_ai.usage.input_tokens'),
    tokensOut: sum(chats, 'tokens_out', 'gen_ai.usage.output_tokens'),
    processes: new Set(spans.map(processOf)).size,
    ...(instruction !== undefined ? { instruction } : {}),
  };
}

function rootResult(record: SpanRecord): 'success' | 'failed' | 'unknown' {
  if (record.result === 'failed' || record.status === 'error') return 'failed';
  return record.result === 'success' ? 'success' : 'unknown';
}

function sum(spans: readonly SpanRecord[], field: string, attribute: string): number {
  return spans.reduce((total, record) => total + (numberOr(record[field]) ?? numberOr(record.attributes[attribute]) ?? 0), 0);
}

function numberOr(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export type TraceLookup = { kind: 'found'; traceId: string } | { kind: 'unknown' } | { kind: 'ambiguous'; matches: string[] };

/** The trace a full id or a unique prefix of one names (case does not matter). */
export function findTrace(traceIds: Iterable<string>, prefix: string): TraceLookup {
  const wanted = prefix.trim().toLowerCase();
  const matches = [...traceIds].filter((id) => id.startsWith(wanted));
  if (matches.includes(wanted)) return { kind: 'found', traceId: wanted };
  if (matches.length === 1) return { kind: 'found', traceId: matches[0]! };
  return matches.length === 0 ? { kind: 'unknown' } : { kind: 'ambiguous', matches };
}

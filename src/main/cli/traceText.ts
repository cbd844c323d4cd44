import { formatCount, plural } from '../../shared/countWords';
import type { SpanRecord } from '../telemetry/span';
import { isChat, isStep, type TraceNode, type TraceSummary } from '../telemetry/traceTree';

/** How `tandem trace` prints for a person: one line per trace, and a trace as a tree. */

const pad = (n: number) => String(n).padStart(2, '0');

/** Local time, to the second: "2026-11-29 14:03:07". */
export function localTime(iso: string): string {
  const at = new Date(iso);
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
}

/** "850 ms", "12.3 s", "4 min 05 s". */
export function duration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1_000);
  return `${Math.floor(seconds / 60)} min ${pad(seconds % 60)} s`;
}

const tokens = (input: unknown, output: unknown) =>
  typeof input === 'number' || typeof output === 'number' ? `tokens ${formatCount(Number(input ?? 0))} in / ${formatCount(Number(output ?? 0))} out` : undefined;

const quoted = (text: unknown) => (typeof text === 'string' ? JSON.stringify(text.length > 80 ? `${text.slice(0, 79)}…` : text) : undefined);

export function summaryLine(summary: TraceSummary): string {
  const steps = `${plural(summary.steps, 'step')}${summary.notRun ? ` (${summary.notRun} not run)` : ''}`;
  return [
    localTime(summary.start),
    summary.traceId,
    duration(summary.durationMs).padStart(9),
    summary.result.padEnd(7),
    steps,
    tokens(summary.tokensIn, summary.tokensOut),
    summary.processes > 1 ? `${summary.processes} processes` : undefined,
    quoted(summary.instruction),
  ]
    .filter(Boolean)
    .join('  ');
}

/** The trace as a tree: each span on a line under its parent, with what it did. */
export function treeText(summary: TraceSummary, roots: readonly TraceNode[]): string {
  const lines = [`trace ${summary.traceId}  ${localTime(summary.start)}  ${summary.result}  ${duration(summary.durationMs)}  ${plural(summary.processes, 'process', 'processes')}`];
  const walk = (node: TraceNode, lead: string, branch: string) => {
    lines.push(`${lead}${branch}${nodeText(node, lead === '' && branch === '')}`);
    const childLead = lead + (branch === '├─ ' ? '│  ' : branch === '└─ ' ? '   ' : '');
    node.children.forEach((child, index) => walk(child, childLead, index === node.children.length - 1 ? '└─ ' : '├─ '));
  };
  for (const root of roots) walk(root, '', '');
  return lines.join('\n');
}

function nodeText(node: TraceNode, topLevel: boolean): string {
  const record = node.record;
  const where = topLevel || node.otherProcess ? `${node.otherProcess ? 'child agent, ' : ''}pid ${record.pid} on ${record.host}` : undefined;
  const parts = [record.name, ...(isStep(record) ? stepParts(record) : isChat(record) ? chatParts(record) : rootParts(record)), where];
  if (topLevel && record.parent_span) parts.push(`(joined from span ${record.parent_span})`);
  return parts.filter(Boolean).join('  ');
}

function rootParts(record: SpanRecord): (string | undefined)[] {
  const model = typeof record.model === 'string' ? `${String(record.backend ?? '')} ${record.model}`.trim() : undefined;
  return [typeof record.result === 'string' ? record.result : record.status, duration(record.duration_ms), tokens(record.tokens_in, record.tokens_out), model, quoted(record.instruction)];
}

function chatParts(record: SpanRecord): (string | undefined)[] {
  const attributes = record.attributes;
  return [
    record.status === 'error' ? `failed (${String(attributes['error.type'] ?? 'error')})` : undefined,
    duration(record.duration_ms),
    tokens(record.tokens_in, record.tokens_out),
    attributes['tandem.fallback.from'] !== undefined ? `fallback from ${String(attributes['tandem.fallback.from'])}` : undefined,
    attributes['tandem.fallback.to'] !== undefined ? `fell back to ${String(attributes['tandem.fallback.to'])}` : undefined,
  ];
}

function stepParts(record: SpanRecord): (string | undefined)[] {
  const attributes = record.attributes;
  const status = String(attributes['tandem.step.status'] ?? record.status);
  const by = attributes['tandem.approval.by'];
  const wait = attributes['tandem.approval.wait_ms'];
  const verdict = status === 'denied' ? 'denied' : status === 'skipped' ? 'skipped' : 'allowed';
  const approval = by !== undefined ? `${verdict} by ${String(by)}${typeof wait === 'number' ? ` after ${duration(wait)}` : ''}` : undefined;
  const ran = attributes['tandem.step.run_ms'];
  return [
    attributes['tandem.step.index'] !== undefined ? `step ${String(attributes['tandem.step.index'])}` : undefined,
    status,
    record.exit !== undefined ? `exit ${String(record.exit)}` : undefined,
    typeof ran === 'number' ? `ran ${duration(ran)}` : duration(record.duration_ms),
    approval,
    attributes['tandem.step.beyond_limit'] === true ? 'beyond the step limit' : undefined,
    typeof record.command === 'string' ? `$ ${record.command}` : undefined,
  ];
}

import { describe, expect, it } from 'vitest';
import { Span, type SpanRecord } from '../../src/main/telemetry/span';
import { StepSpans, type TracedStep } from '../../src/main/telemetry/stepSpans';
import type { Tracer } from '../../src/main/telemetry/tracer';

// The plan tells the spans what changed a moment after it changed (once a typed step's echo
// is back): the times in the trace are those of the change, not of the telling.

function setup() {
  const records: SpanRecord[] = [];
  const sink = { write: (record: SpanRecord) => records.push(record) };
  const root = new Span('invoke_agent', 'a'.repeat(32), undefined, sink, { pid: 1, host: 'test' });
  const tracer = {
    includeContent: false,
    startChild: (name: string, parent: Span | undefined) => parent && new Span(name, parent.traceId, parent.spanId, sink, { pid: 1, host: 'test' }),
  } as unknown as Tracer;
  const spans = new StepSpans(tracer, () => 'c1', () => undefined);
  return { records, root, spans };
}

const asked: TracedStep = {
  id: 'p1s1',
  index: 1,
  command: 'rm -rf build',
  purpose: 'clean',
  status: 'proposed',
  tool: 'run_command',
  toolUseId: 'toolu_1',
  approval: { decision: 'ask', blocked: false, rule: 'default: ask', decidedBy: 'default', grantable: true, shape: 'rm <args>' },
};

describe('StepSpans', () => {
  it('records a decision, its wait and the end of a step that will not run at the times the plan says they happened', () => {
    const { records, root, spans } = setup();
    spans.observe([asked], root, Date.parse('2026-01-01T10:00:00.000Z'));
    const denied: TracedStep = { ...asked, status: 'denied', decider: { verdict: 'denied', by: 'you', rule: 'Deny' } };
    spans.observe([denied], root, Date.parse('2026-01-01T10:00:02.500Z'));

    const [record] = records;
    expect(record?.events).toEqual([expect.objectContaining({ name: 'approval', time: '2026-01-01T10:00:02.500Z' })]);
    expect(record?.attributes['tandem.approval.wait_ms']).toBe(2_500);
    expect(record?.end).toBe('2026-01-01T10:00:02.500Z');
  });
});

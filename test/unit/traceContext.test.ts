import { describe, expect, it } from 'vitest';
import { childEnvironment, inheritedContext } from '../../src/main/telemetry/traceContext';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';

describe('trace context in the environment', () => {
  it('TRACEPARENT wins over the TANDEM_ variables, and TRACESTATE and the depth come along', () => {
    expect(inheritedContext({ TRACEPARENT: `00-${TRACE}-${SPAN}-01`, TRACESTATE: 'vendor=x', TANDEM_TRACE_ID: 'f'.repeat(32), TANDEM_TRACE_DEPTH: '2' })).toEqual({
      traceId: TRACE,
      parentSpanId: SPAN,
      depth: 2,
      traceState: 'vendor=x',
    });
  });

  it('TANDEM_TRACE_ID alone joins the trace without a parent span; malformed values are ignored', () => {
    expect(inheritedContext({ TANDEM_TRACE_ID: TRACE })).toEqual({ traceId: TRACE, parentSpanId: undefined, depth: 0, traceState: undefined });
    expect(inheritedContext({ TRACEPARENT: `00-${'0'.repeat(32)}-${SPAN}-01` })).toBeUndefined();
    expect(inheritedContext({ TRACEPARENT: 'garbage', TANDEM_TRACE_ID: 'xyz' })).toBeUndefined();
  });

  it("a step's variables name the step's span as the parent of what starts there, one level deeper", () => {
    const env = childEnvironment({ traceId: TRACE, spanId: SPAN, parentSpanId: 'a'.repeat(16) }, 1, 'vendor=x');
    expect(env).toEqual({ TRACEPARENT: `00-${TRACE}-${SPAN}-01`, TRACESTATE: 'vendor=x', TANDEM_TRACE_ID: TRACE, TANDEM_SPAN_ID: SPAN, TANDEM_PARENT_SPAN_ID: 'a'.repeat(16), TANDEM_TRACE_DEPTH: '2' });
    expect(inheritedContext(env)).toMatchObject({ traceId: TRACE, parentSpanId: SPAN, depth: 2 });
    expect(childEnvironment({ traceId: TRACE, spanId: SPAN }, 0, undefined, 'file:///tmp/t.jsonl')).toMatchObject({ TANDEM_TRACE_SINK: 'file:///tmp/t.jsonl', TANDEM_TRACE_DEPTH: '1' });
  });
});

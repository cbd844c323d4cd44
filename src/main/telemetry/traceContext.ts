import { randomBytes } from 'node:crypto';

/** Where a process's spans hang in a trace started elsewhere (a parent agent's step, `ssh host env TRACEPARENT=… tandem agent`). */
export interface InheritedContext {
  traceId: string;
  /** The span this process's roots are children of (absent: only `TANDEM_TRACE_ID` was given). */
  parentSpanId?: string;
  /** Nesting level of this process's agent (0 for one nobody started). */
  depth: number;
  /** W3C `TRACESTATE`, passed on unchanged. */
  traceState?: string;
}

const TRACE_ID = /^(?!0{32})[0-9a-f]{32}$/;
const SPAN_ID = /^(?!0{16})[0-9a-f]{16}$/;
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/;

export const newTraceId = (): string => randomBytes(16).toString('hex');
export const newSpanId = (): string => randomBytes(8).toString('hex');

/**
 * The trace context in an environment: W3C `TRACEPARENT` (OpenTelemetry's environment
 * carrier) wins; otherwise `TANDEM_TRACE_ID` with `TANDEM_SPAN_ID`. Malformed values are ignored.
 */
export function inheritedContext(env: NodeJS.ProcessEnv): InheritedContext | undefined {
  const depth = Math.max(0, Number.parseInt(env.TANDEM_TRACE_DEPTH ?? '', 10) || 0);
  const traceState = env.TRACESTATE?.trim() || undefined;
  const w3c = TRACEPARENT.exec(env.TRACEPARENT?.trim().toLowerCase() ?? '');
  if (w3c && TRACE_ID.test(w3c[1]!) && SPAN_ID.test(w3c[2]!)) return { traceId: w3c[1]!, parentSpanId: w3c[2]!, depth, traceState };
  const traceId = env.TANDEM_TRACE_ID?.trim().toLowerCase() ?? '';
  const spanId = env.TANDEM_SPAN_ID?.trim().toLowerCase() ?? '';
  if (TRACE_ID.test(traceId)) return { traceId, parentSpanId: SPAN_ID.test(spanId) ? spanId : undefined, depth, traceState };
  return undefined;
}

/**
 * The variables a step's shell gets: a process started there joins the trace under `spanId`
 * (the step's span), one level deeper, and writes its spans to `sink` (TANDEM_TRACE_SINK).
 */
export function childEnvironment(span: { traceId: string; spanId: string; parentSpanId?: string }, depth: number, traceState?: string, sink?: string): Record<string, string> {
  return {
    TRACEPARENT: `00-${span.traceId}-${span.spanId}-01`,
    ...(traceState ? { TRACESTATE: traceState } : {}),
    TANDEM_TRACE_ID: span.traceId,
    TANDEM_SPAN_ID: span.spanId,
    ...(span.parentSpanId ? { TANDEM_PARENT_SPAN_ID: span.parentSpanId } : {}),
    TANDEM_TRACE_DEPTH: String(depth + 1),
    ...(sink ? { TANDEM_TRACE_SINK: sink } : {}),
  };
}

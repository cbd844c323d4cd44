import { SpanKind, SpanStatusCode, TraceFlags, type Attributes, type HrTime } from '@opentelemetry/api';
import type { InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import type { SpanRecord } from './span';

/** The record's own fields, and seed fields the span's attributes already carry (gen_ai.usage.*, process.exit.code, …). */
const NOT_ATTRIBUTES = new Set(['trace_id', 'span_id', 'parent_span', 'name', 'pid', 'host', 'start', 'end', 'duration_ms', 'status', 'attributes', 'events', 'backend', 'model', 'tokens_in', 'tokens_out', 'exit', 'approval', 'type', 'actions']);

/**
 * One of our finished spans as the OpenTelemetry SDK's exporters take it, with our ids
 * (so the collector and traces.jsonl show the same tree). The seed's other scalar fields
 * (`instruction` and `command` when content is on, `result`) become `tandem.*` attributes.
 */
export function readableSpan(record: SpanRecord, resource: Resource, instrumentationScope: InstrumentationScope): ReadableSpan {
  const startMs = Date.parse(record.start);
  const endMs = Date.parse(record.end);
  const attributes: Attributes = { ...record.attributes };
  for (const [field, value] of Object.entries(record)) {
    if (!NOT_ATTRIBUTES.has(field) && (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')) attributes[`tandem.${field}`] = value;
  }
  const errorType = record.attributes['error.type'];
  return {
    name: record.name,
    kind: record.attributes['gen_ai.operation.name'] === 'chat' ? SpanKind.CLIENT : SpanKind.INTERNAL,
    spanContext: () => ({ traceId: record.trace_id, spanId: record.span_id, traceFlags: TraceFlags.SAMPLED }),
    parentSpanContext: record.parent_span ? { traceId: record.trace_id, spanId: record.parent_span, traceFlags: TraceFlags.SAMPLED } : undefined,
    startTime: hrTime(startMs),
    endTime: hrTime(endMs),
    duration: hrTime(Math.max(0, endMs - startMs)),
    status: record.status === 'error' ? { code: SpanStatusCode.ERROR, ...(errorType !== undefined ? { message: String(errorType) } : {}) } : { code: SpanStatusCode.UNSET },
    attributes,
    links: [],
    events: (record.events ?? []).map((event) => ({ name: event.name, time: hrTime(Date.parse(event.time)), attributes: event.attributes ?? {}, droppedAttributesCount: 0 })),
    ended: true,
    resource,
    instrumentationScope,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}

function hrTime(ms: number): HrTime {
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.round((ms - seconds * 1000) * 1e6)];
}

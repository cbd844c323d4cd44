import { newSpanId } from './traceContext';

export type AttributeValue = string | number | boolean;
export type Attributes = Record<string, AttributeValue | undefined>;

/** One finished span as the sinks get it: OpenTelemetry's fields plus the seed's flat ones (docs/telemetry.md). */
export interface SpanRecord {
  trace_id: string;
  span_id: string;
  parent_span: string | null;
  name: string;
  pid: number;
  host: string;
  start: string;
  end: string;
  duration_ms: number;
  status: 'ok' | 'error';
  attributes: Record<string, AttributeValue>;
  events?: { name: string; time: string; attributes?: Record<string, AttributeValue> }[];
  [seedField: string]: unknown;
}

export interface SpanSink {
  write(record: SpanRecord): void;
}

/** A span in progress; `end()` hands it to the sink once. */
export class Span {
  readonly spanId = newSpanId();
  private readonly startedAt = Date.now();
  private readonly attributes: Record<string, AttributeValue> = {};
  private readonly fields: Record<string, unknown> = {};
  private readonly events: NonNullable<SpanRecord['events']> = [];
  private failed = false;
  private ended = false;

  constructor(
    readonly name: string,
    readonly traceId: string,
    readonly parentSpanId: string | undefined,
    private readonly sink: SpanSink,
    private readonly origin: { pid: number; host: string },
  ) {}

  set(attributes: Attributes): this {
    for (const [key, value] of Object.entries(attributes)) if (value !== undefined) this.attributes[key] = value;
    return this;
  }

  /** The seed's flat fields (§10.3: instruction, actions, tokens_in, result …). */
  field(name: string, value: unknown): this {
    if (value !== undefined) this.fields[name] = value;
    return this;
  }

  /** `at`: when it happened (epoch ms), when that was a moment before it is recorded. */
  event(name: string, attributes?: Attributes, at = Date.now()): this {
    const kept = attributes && Object.fromEntries(Object.entries(attributes).filter((entry): entry is [string, AttributeValue] => entry[1] !== undefined));
    this.events.push({ name, time: new Date(at).toISOString(), ...(kept ? { attributes: kept } : {}) });
    return this;
  }

  fail(): this {
    this.failed = true;
    return this;
  }

  /** `at`: when it ended (epoch ms), when that was a moment before it is recorded. */
  end(at = Date.now()): void {
    if (this.ended) return;
    this.ended = true;
    const endedAt = at;
    this.sink.write({
      trace_id: this.traceId,
      span_id: this.spanId,
      parent_span: this.parentSpanId ?? null,
      name: this.name,
      pid: this.origin.pid,
      host: this.origin.host,
      start: new Date(this.startedAt).toISOString(),
      end: new Date(endedAt).toISOString(),
      duration_ms: endedAt - this.startedAt,
      status: this.failed ? 'error' : 'ok',
      ...this.fields,
      attributes: this.attributes,
      ...(this.events.length ? { events: this.events } : {}),
    });
  }
}

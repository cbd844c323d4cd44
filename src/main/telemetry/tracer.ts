import { hostname } from 'node:os';
import type { Settings } from '../../shared/settings';
import { JsonlTraceSink } from './jsonlTraceSink';
import { Span, type SpanRecord, type SpanSink } from './span';
import { childEnvironment, inheritedContext, newTraceId, type InheritedContext } from './traceContext';

export type TelemetrySettings = Settings['telemetry'];

export interface TracerOptions {
  env: NodeJS.ProcessEnv;
  /** `$XDG_STATE_HOME/tandem/traces.jsonl`. */
  file: string;
  settings(): TelemetrySettings;
  /** A `tandem agent` run: every instruction of the run is in one trace (the one its session event names). */
  oneTrace: boolean;
  onError(error: Error): void;
}

/**
 * Spans of this process: roots join the trace this process was started in (its environment)
 * or start their own. `[telemetry] enabled = false`: no span is made and nothing is written.
 */
export class Tracer {
  /** The trace a `tandem agent` run's instructions are in. */
  readonly runTraceId: string;
  private readonly inherited: InheritedContext | undefined;
  private readonly origin = { pid: process.pid, host: hostname() };
  private sink: JsonlTraceSink | undefined;
  private readonly forwarding: SpanSink = { write: (record: SpanRecord) => this.fileSink().write(record) };

  constructor(private readonly options: TracerOptions) {
    this.inherited = inheritedContext(options.env);
    this.runTraceId = this.inherited?.traceId ?? newTraceId();
  }

  get enabled(): boolean {
    return this.options.settings().enabled;
  }

  get includeContent(): boolean {
    return this.options.settings().include_content;
  }

  /** Nesting level of this process's agent. */
  get depth(): number {
    return this.inherited?.depth ?? 0;
  }

  /** The JSONL file spans are written to. */
  get file(): string {
    return this.options.file;
  }

  /** This process was started inside a trace (a parent agent's step, TRACEPARENT in its environment). */
  get inheritsTrace(): boolean {
    return this.inherited !== undefined;
  }

  /** A root span (an instruction), or undefined when telemetry is off. */
  startRoot(name: string): Span | undefined {
    if (!this.enabled) return undefined;
    const traceId = this.inherited?.traceId ?? (this.options.oneTrace ? this.runTraceId : newTraceId());
    return new Span(name, traceId, this.inherited?.parentSpanId, this.forwarding, this.origin);
  }

  startChild(name: string, parent: Span | undefined): Span | undefined {
    if (!parent || !this.enabled) return undefined;
    return new Span(name, parent.traceId, parent.spanId, this.forwarding, this.origin);
  }

  /** What a step's shell gets so a process it starts joins the trace under the step's span. */
  environmentFor(span: Span): Record<string, string> {
    return childEnvironment(span, this.depth, this.inherited?.traceState);
  }

  flush(): Promise<void> {
    return this.sink?.flush() ?? Promise.resolve();
  }

  private fileSink(): JsonlTraceSink {
    this.sink ??= new JsonlTraceSink({
      file: this.options.file,
      retainDays: this.options.settings().retain_days,
      trims: this.inherited === undefined,
      onError: this.options.onError,
    });
    return this.sink;
  }
}

import { hostname } from 'node:os';
import type { Settings } from '../../shared/settings';
import { Span } from './span';
import { childEnvironment, inheritedContext, newTraceId, type InheritedContext } from './traceContext';
import { TraceSinks, type SpanStream } from './traceSinks';

export type TelemetrySettings = Settings['telemetry'];

export interface TracerOptions {
  env: NodeJS.ProcessEnv;
  /** `$XDG_STATE_HOME/tandem/traces.jsonl`. */
  file: string;
  settings(): TelemetrySettings;
  /** A `tandem agent` run: every instruction of the run is in one trace (the one its session event names). */
  oneTrace: boolean;
  onError(error: Error): void;
  /** `TANDEM_TRACE_SINK=stdout`: a `tandem agent` run's NDJSON event stream. */
  stream?: SpanStream;
  /** Tandem's version (the OTLP resource's service.version). */
  version?: string;
  /** A telemetry variable that cannot be used, an OTLP collector that cannot be reached. */
  onProblem?(message: string): void;
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
  private readonly sinks: TraceSinks;

  constructor(private readonly options: TracerOptions) {
    this.inherited = inheritedContext(options.env);
    this.runTraceId = this.inherited?.traceId ?? newTraceId();
    this.sinks = new TraceSinks({
      env: options.env,
      defaultFile: options.file,
      retainDays: () => options.settings().retain_days,
      trims: this.inherited === undefined,
      stream: options.stream,
      otlpEndpoint: () => options.settings().otlp_endpoint,
      origin: this.origin,
      version: options.version ?? 'unknown',
      onError: options.onError,
      onProblem: options.onProblem ?? (() => undefined),
    });
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
    this.sinks.prepare();
    return new Span(name, traceId, this.inherited?.parentSpanId, this.sinks, this.origin);
  }

  startChild(name: string, parent: Span | undefined): Span | undefined {
    if (!parent || !this.enabled) return undefined;
    return new Span(name, parent.traceId, parent.spanId, this.sinks, this.origin);
  }

  /** What a step's shell gets so a process it starts joins the trace under the step's span. */
  environmentFor(span: Span): Record<string, string> {
    return childEnvironment(span, this.depth, this.inherited?.traceState, this.sinks.childSink);
  }

  /** Everything handed over so far is in the file (and at the OTLP collector, or given up on after a while). */
  flush(): Promise<void> {
    return this.sinks.flush();
  }
}

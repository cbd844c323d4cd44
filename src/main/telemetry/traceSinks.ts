import { JsonlTraceSink } from './jsonlTraceSink';
import { otlpChoice } from './otlpConfig';
import { OtlpSink } from './otlpSink';
import type { SpanRecord, SpanSink } from './span';
import { sinkForChildren, traceSinkChoice, type TraceSinkChoice } from './traceSinkChoice';

/** A `tandem agent --json` run's event stream, where `TANDEM_TRACE_SINK=stdout` spans go. */
export interface SpanStream {
  /** False once the stream has ended (its `result` line is out): the span goes to the file instead. */
  write(record: SpanRecord): boolean;
}

export interface TraceSinksOptions {
  env: NodeJS.ProcessEnv;
  /** `$XDG_STATE_HOME/tandem/traces.jsonl`. */
  defaultFile: string;
  retainDays(): number;
  /** Only a process that started its own trace trims the file. */
  trims: boolean;
  stream?: SpanStream;
  /** `[telemetry] otlp_endpoint` (the OTEL_ variables override it). */
  otlpEndpoint(): string;
  origin: { pid: number; host: string };
  version: string;
  /** The trace file could not be written. */
  onError(error: Error): void;
  /** A variable that cannot be used, a collector that cannot be reached: one log line each. */
  onProblem(message: string): void;
}

/**
 * Where finished spans go (docs/telemetry.md, "Sinks"): the JSONL file — or the run's event
 * stream with `TANDEM_TRACE_SINK=stdout` — and OTLP beside it when the OTEL_ variables ask for it.
 * Everything is decided at the first span, so a process whose telemetry is off decides nothing.
 */
export class TraceSinks implements SpanSink {
  private decided: { choice: TraceSinkChoice; otlp: OtlpSink | undefined } | undefined;
  private file: JsonlTraceSink | undefined;
  private childSinkValue: string | undefined;

  constructor(private readonly options: TraceSinksOptions) {}

  /**
   * The `TANDEM_TRACE_SINK` a step's shell gets: the file this process was told to write, or
   * `file` (the default file) when its own spans go to its stream — a step's output is no place
   * for them — or its value was one Tandem does not know. Nothing when none was given, so
   * `SendEnv TANDEM_*` carries no local path to another host.
   */
  get childSink(): string | undefined {
    const choice = this.decide().choice;
    if (choice.kind === 'file' && choice.file !== this.options.defaultFile) {
      this.childSinkValue ??= sinkForChildren(choice.file);
      return this.childSinkValue;
    }
    return this.options.env.TANDEM_TRACE_SINK === undefined ? undefined : 'file';
  }

  /** Called when a trace starts: the OTLP exporter starts loading while the first request is on its way. */
  prepare(): void {
    this.decide();
  }

  write(record: SpanRecord): void {
    const { choice, otlp } = this.decide();
    if (!(choice.kind === 'stdout' && this.options.stream?.write(record))) this.fileSink(choice).write(record);
    otlp?.write(record);
  }

  async flush(): Promise<void> {
    await Promise.all([this.file?.flush(), this.decided?.otlp?.flush()]);
  }

  private decide(): { choice: TraceSinkChoice; otlp: OtlpSink | undefined } {
    if (this.decided) return this.decided;
    const { env, defaultFile, onProblem } = this.options;
    const choice = traceSinkChoice(env.TANDEM_TRACE_SINK, defaultFile);
    if (choice.kind === 'file' && choice.problem) onProblem(choice.problem);
    if (choice.kind === 'stdout' && !this.options.stream) onProblem(`TANDEM_TRACE_SINK=stdout applies to a \`tandem agent\` run's NDJSON event stream, which this process does not print; its spans go to ${defaultFile}.`);
    const otlp = otlpChoice(env, this.options.otlpEndpoint());
    for (const problem of otlp.problems) onProblem(problem);
    this.decided = {
      choice,
      otlp: otlp.config && new OtlpSink({ config: otlp.config, origin: this.options.origin, version: this.options.version, onProblem }),
    };
    return this.decided;
  }

  private fileSink(choice: TraceSinkChoice): JsonlTraceSink {
    this.file ??= new JsonlTraceSink({
      file: choice.kind === 'file' ? choice.file : this.options.defaultFile,
      retainDays: this.options.retainDays(),
      trims: this.options.trims,
      onError: this.options.onError,
    });
    return this.file;
  }
}

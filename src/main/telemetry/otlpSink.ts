import type { OtlpConfig } from './otlpConfig';
import type { OtlpExport, OtlpExportOptions } from './otlpExport';
import type { SpanRecord, SpanSink } from './span';

/** How long the end of a run (or the app's quit) waits for the collector to take the last spans. */
const OTLP_FLUSH_LIMIT_MS = 2_000;
/** Spans kept while the exporter module loads; past this they are dropped (it loads in well under a second). */
const MAX_WAITING = 2_048;

/**
 * Spans exported over OTLP. The OpenTelemetry SDK is imported on first use, so a process whose
 * telemetry is off (or has no OTLP variables) never loads it; spans that end meanwhile wait.
 */
export class OtlpSink implements SpanSink {
  private waiting: SpanRecord[] | undefined = [];
  private exporting: OtlpExport | undefined;
  private readonly loaded: Promise<void>;

  constructor(options: OtlpExportOptions & { config: OtlpConfig }) {
    this.loaded = import('./otlpExport').then(
      ({ OtlpExport }) => {
        this.exporting = new OtlpExport(options);
        for (const record of this.waiting ?? []) this.exporting.write(record);
        this.waiting = undefined;
      },
      (error: Error) => {
        this.waiting = undefined;
        options.onProblem(`the OTLP exporter could not be loaded (${error.message}); spans are not exported.`);
      },
    );
  }

  write(record: SpanRecord): void {
    if (this.exporting) this.exporting.write(record);
    else if (this.waiting && this.waiting.length < MAX_WAITING) this.waiting.push(record);
  }

  async flush(): Promise<void> {
    await this.loaded;
    await this.exporting?.flush(OTLP_FLUSH_LIMIT_MS);
  }
}

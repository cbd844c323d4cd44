import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace';
import type { OtlpConfig } from './otlpConfig';
import { readableSpan } from './otlpSpan';
import type { SpanRecord } from './span';

// Loaded only when OTLP is on (OtlpSink imports it on first use): with telemetry off or no
// OTLP variables, none of the OpenTelemetry SDK is loaded.

export interface OtlpExportOptions {
  config: OtlpConfig;
  origin: { pid: number; host: string };
  version: string;
  /** Said once per outage (a dead collector, a refused request): spans are dropped meanwhile. */
  onProblem(message: string): void;
}

/** Finished spans, handed to the SDK's batching processor and exported in the background. */
export class OtlpExport {
  private readonly processor: BatchSpanProcessor;
  private readonly exporter: ReportingExporter;
  private readonly resource;
  private readonly scope;

  constructor(private readonly options: OtlpExportOptions) {
    const { config, origin, version } = options;
    this.resource = defaultResource().merge(
      resourceFromAttributes({ ...config.resourceAttributes, 'service.name': config.serviceName, 'service.version': version, 'host.name': origin.host, 'process.pid': origin.pid, 'process.runtime.name': 'nodejs' }),
    );
    this.scope = { name: 'tandem', version };
    this.exporter = new ReportingExporter(new OTLPTraceExporter({ url: config.url, headers: config.headers }), shownUrl(config.url), options.onProblem);
    this.processor = new BatchSpanProcessor({ exporter: this.exporter, scheduledDelayMillis: config.scheduledDelayMs });
  }

  write(record: SpanRecord): void {
    this.exporter.handedOver += 1;
    this.processor.onEnd(readableSpan(record, this.resource, this.scope));
  }

  /** Exports what is waiting; gives up (and says so, dropping those spans) after `limitMs`. */
  async flush(limitMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<'gave-up'>((resolve) => (timer = setTimeout(() => resolve('gave-up'), limitMs)));
    const outcome = await Promise.race([this.processor.forceFlush().catch(() => 'failed' as const), gaveUp]);
    clearTimeout(timer);
    if (outcome === 'gave-up') this.exporter.gaveUp(limitMs);
  }
}

/** The OTLP exporter, saying once when the collector cannot be reached (and again only after it answered in between). */
class ReportingExporter implements SpanExporter {
  handedOver = 0;
  private settled = 0;
  private reported = false;

  constructor(
    private readonly inner: SpanExporter,
    private readonly url: string,
    private readonly onProblem: (message: string) => void,
  ) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.inner.export(spans, (result) => {
      this.settled += spans.length;
      if (result.code === ExportResultCode.SUCCESS) this.reported = false;
      else this.report(`OTLP export to ${this.url} failed (${describe(result.error)}); ${spans.length} spans were dropped, and more will be until the collector answers.`);
      done(result);
    });
  }

  gaveUp(limitMs: number): void {
    const waiting = this.handedOver - this.settled;
    if (waiting > 0) this.report(`OTLP export to ${this.url}: the collector did not take ${waiting} spans within ${limitMs / 1000} s; they are dropped.`);
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  private report(message: string): void {
    if (this.reported) return;
    this.reported = true;
    this.onProblem(message);
  }
}

function describe(error: Error | undefined): string {
  if (!error) return 'no reason given';
  const status = (error as { code?: unknown }).code;
  return typeof status === 'number' ? `HTTP ${status} ${error.message}`.trim() : error.message;
}

/** The endpoint without credentials a URL may carry (user:password@). */
function shownUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

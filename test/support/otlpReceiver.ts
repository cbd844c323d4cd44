import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

/** An OTLP/HTTP attribute value as the JSON protocol encodes it. */
type AnyValue = { stringValue?: string; intValue?: number | string; doubleValue?: number; boolValue?: boolean };
type KeyValue = { key: string; value: AnyValue };
type JsonSpan = { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; startTimeUnixNano: string | number; endTimeUnixNano: string | number; attributes?: KeyValue[]; events?: { name: string; attributes?: KeyValue[] }[]; status?: { code?: number; message?: string } };
/** ExportTraceServiceRequest in the OTLP JSON encoding (ids as hex strings). */
type ExportRequest = { resourceSpans?: { resource?: { attributes?: KeyValue[] }; scopeSpans?: { scope?: { name?: string }; spans?: JsonSpan[] }[] }[] };

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw bytes, to search for what must never leave the machine. */
  body: Buffer;
}

/** One exported span, flattened: its attributes and its resource's as plain objects. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  kind: number;
  /** Start and end in ms since the epoch (the JSON has nanoseconds). */
  startMs: number;
  endMs: number;
  attributes: Record<string, string | number | boolean>;
  resource: Record<string, string | number | boolean>;
  events: { name: string; attributes: Record<string, string | number | boolean> }[];
  status: { code?: number; message?: string };
}

/**
 * A small OTLP/HTTP collector on loopback: it takes `POST /v1/traces` in the JSON protocol
 * (what @opentelemetry/exporter-trace-otlp-http sends), answers 200 `{}` — or, with
 * `answer: 'never'`, holds every request open, as a collector that hangs does.
 */
export async function startOtlpReceiver(options: { answer?: 'ok' | 'never' } = {}) {
  const requests: ReceivedRequest[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks) });
      if (options.answer === 'never') return;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };

  function spans(): ReceivedSpan[] {
    return requests.flatMap((request) =>
      ((JSON.parse(request.body.toString('utf8')) as ExportRequest).resourceSpans ?? []).flatMap((resourceSpans) => {
        const resource = attributesOf(resourceSpans.resource?.attributes);
        return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
          (scope.spans ?? []).map((span) => ({
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId || undefined,
            name: span.name,
            kind: span.kind,
            startMs: Number(BigInt(span.startTimeUnixNano) / 1_000_000n),
            endMs: Number(BigInt(span.endTimeUnixNano) / 1_000_000n),
            attributes: attributesOf(span.attributes),
            resource,
            events: (span.events ?? []).map((event) => ({ name: event.name, attributes: attributesOf(event.attributes) })),
            status: span.status ?? {},
          })),
        );
      }),
    );
  }

  return {
    /** The base endpoint, as OTEL_EXPORTER_OTLP_ENDPOINT takes it. */
    url: `http://127.0.0.1:${port}`,
    requests,
    spans,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function attributesOf(list: KeyValue[] | undefined): Record<string, string | number | boolean> {
  const attributes: Record<string, string | number | boolean> = {};
  for (const { key, value } of list ?? []) {
    const scalar = value.stringValue ?? value.boolValue ?? value.doubleValue ?? (value.intValue !== undefined ? Number(value.intValue) : undefined);
    if (scalar !== undefined) attributes[key] = scalar;
  }
  return attributes;
}

/** Where and how spans are exported over OTLP/HTTP (docs/telemetry.md, "OpenTelemetry"). */
export interface OtlpConfig {
  /** The traces endpoint spans are POSTed to (…/v1/traces). */
  url: string;
  headers: Record<string, string>;
  serviceName: string;
  /** `OTEL_RESOURCE_ATTRIBUTES`, beside service.name, host and pid. */
  resourceAttributes: Record<string, string>;
  /** How long finished spans wait to be exported together (`OTEL_BSP_SCHEDULE_DELAY`). */
  scheduledDelayMs: number;
}

/** The export to make (none when OTLP is off) and what was wrong with the variables (said once, in the log). */
export interface OtlpChoice {
  config?: OtlpConfig;
  problems: string[];
}

const TRACES_PATH = 'v1/traces';
const DEFAULT_ENDPOINT = 'http://localhost:4318';
const DEFAULT_SCHEDULE_DELAY_MS = 5_000;

/**
 * The standard OpenTelemetry variables, read the way the OpenTelemetry SDKs read them:
 * `OTEL_TRACES_EXPORTER=otlp`, `OTEL_EXPORTER_OTLP_ENDPOINT` or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` turn the export on (as does `[telemetry] otlp_endpoint`,
 * which the variables override); `OTEL_TRACES_EXPORTER=none` or `OTEL_SDK_DISABLED=true` turn it off.
 */
export function otlpChoice(env: NodeJS.ProcessEnv, settingEndpoint = ''): OtlpChoice {
  const problems: string[] = [];
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return { problems };
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  const unsupported = exporters.filter((name) => name !== 'otlp' && name !== 'none');
  if (unsupported.length) problems.push(`OTEL_TRACES_EXPORTER: ${unsupported.join(', ')} is not an exporter Tandem has (otlp or none); it is ignored.`);
  if (exporters.includes('none')) return { problems };
  const tracesEndpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  const wanted = exporters.includes('otlp') || Boolean(tracesEndpoint || endpoint || settingEndpoint.trim());
  if (!wanted || (exporters.length > 0 && !exporters.includes('otlp'))) return { problems };

  const [url, source] = tracesEndpoint
    ? [tracesEndpoint, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']
    : endpoint
      ? [tracesUrl(endpoint), 'OTEL_EXPORTER_OTLP_ENDPOINT']
      : settingEndpoint.trim()
        ? [tracesUrl(settingEndpoint.trim()), '[telemetry] otlp_endpoint']
        : [tracesUrl(DEFAULT_ENDPOINT), 'the default endpoint'];
  if (!isHttpUrl(url)) {
    problems.push(`${source}: ${JSON.stringify(url)} is not an http:// or https:// URL; spans are not exported over OTLP (traces.jsonl still has them).`);
    return { problems };
  }
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL)?.trim();
  if (protocol && protocol !== 'http/json' && protocol !== 'http/protobuf') problems.push(`OTEL_EXPORTER_OTLP_PROTOCOL=${protocol} is not supported: Tandem sends http/json (to ${url}).`);

  const shared = keyValuePairs(env.OTEL_EXPORTER_OTLP_HEADERS, 'OTEL_EXPORTER_OTLP_HEADERS');
  const specific = keyValuePairs(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS, 'OTEL_EXPORTER_OTLP_TRACES_HEADERS');
  const resource = keyValuePairs(env.OTEL_RESOURCE_ATTRIBUTES, 'OTEL_RESOURCE_ATTRIBUTES');
  problems.push(...shared.problems, ...specific.problems, ...resource.problems);
  return {
    config: {
      url,
      headers: { ...shared.pairs, ...specific.pairs },
      serviceName: env.OTEL_SERVICE_NAME?.trim() || 'tandem',
      resourceAttributes: resource.pairs,
      scheduledDelayMs: scheduleDelay(env.OTEL_BSP_SCHEDULE_DELAY, problems),
    },
    problems,
  };
}

/**
 * The traces URL for a base endpoint: `v1/traces` is appended, as the specification says for
 * `OTEL_EXPORTER_OTLP_ENDPOINT` — unless the base already ends with it (a common slip that
 * would otherwise POST to …/v1/traces/v1/traces).
 */
export function tracesUrl(base: string): string {
  const trimmed = base.replace(/\/+$/, '');
  return trimmed.endsWith(`/${TRACES_PATH}`) ? trimmed : `${trimmed}/${TRACES_PATH}`;
}

/**
 * `key=value,key2=value2` (the W3C Baggage form the OpenTelemetry variables use), keys and
 * values URL-decoded and trimmed. A pair that cannot be read is left out and said — by its
 * position and key only: header values are often credentials.
 */
export function keyValuePairs(text: string | undefined, variable: string): { pairs: Record<string, string>; problems: string[] } {
  const pairs: Record<string, string> = {};
  const problems: string[] = [];
  (text ?? '').split(',').forEach((entry, index) => {
    if (!entry.trim()) return;
    const equals = entry.indexOf('=');
    const key = equals > 0 ? decoded(entry.slice(0, equals)) : undefined;
    const value = equals > 0 ? decoded(entry.slice(equals + 1)) : undefined;
    if (!key || value === undefined) {
      const name = equals > 0 ? ` (${JSON.stringify(entry.slice(0, equals).trim())})` : '';
      problems.push(`${variable}: entry ${index + 1}${name} is not a URL-encoded key=value pair; it is left out.`);
      return;
    }
    pairs[key] = value;
  });
  return { pairs, problems };
}

function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text.trim());
  } catch {
    return undefined;
  }
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

function scheduleDelay(text: string | undefined, problems: string[]): number {
  if (text === undefined || text.trim() === '') return DEFAULT_SCHEDULE_DELAY_MS;
  const value = Number(text.trim());
  if (Number.isInteger(value) && value >= 0) return value;
  problems.push(`OTEL_BSP_SCHEDULE_DELAY: ${JSON.stringify(text)} is not a number of milliseconds; ${DEFAULT_SCHEDULE_DELAY_MS} is used.`);
  return DEFAULT_SCHEDULE_DELAY_MS;
}

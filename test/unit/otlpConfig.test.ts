import { describe, expect, it } from 'vitest';
import { keyValuePairs, otlpChoice, tracesUrl } from '../../src/main/telemetry/otlpConfig';
import { SettingsSchema } from '../../src/shared/settings';

describe('OTLP configuration from the OpenTelemetry variables', () => {
  it('is off without any OTLP variable or setting, and OTEL_SERVICE_NAME alone does not turn it on', () => {
    expect(otlpChoice({})).toEqual({ problems: [] });
    expect(otlpChoice({ OTEL_SERVICE_NAME: 'x' }).config).toBeUndefined();
  });

  it('OTEL_EXPORTER_OTLP_ENDPOINT gets /v1/traces appended, unless it already ends with it', () => {
    expect(otlpChoice({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).config?.url).toBe('http://collector:4318/v1/traces');
    expect(otlpChoice({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).config?.url).toBe('http://collector:4318/v1/traces');
    expect(otlpChoice({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otel.example/prefix' }).config?.url).toBe('https://otel.example/prefix/v1/traces');
    expect(otlpChoice({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/v1/traces' }).config?.url).toBe('http://collector:4318/v1/traces');
    expect(tracesUrl('http://c:4318/v1/traces/')).toBe('http://c:4318/v1/traces');
  });

  it('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is used as it is and wins over the base endpoint and the setting', () => {
    const env = { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://traces:9999/custom/path', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://base:4318' };
    expect(otlpChoice(env, 'http://setting:4318').config?.url).toBe('http://traces:9999/custom/path');
    expect(otlpChoice({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://base:4318' }, 'http://setting:4318').config?.url).toBe('http://base:4318/v1/traces');
    expect(otlpChoice({}, 'http://setting:4318').config?.url).toBe('http://setting:4318/v1/traces');
  });

  it('OTEL_TRACES_EXPORTER=otlp alone exports to the default endpoint; none (or OTEL_SDK_DISABLED) turns everything off', () => {
    expect(otlpChoice({ OTEL_TRACES_EXPORTER: 'otlp' }).config?.url).toBe('http://localhost:4318/v1/traces');
    expect(otlpChoice({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }).config).toBeUndefined();
    expect(otlpChoice({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }).config).toBeUndefined();
    expect(otlpChoice({}, 'http://c:4318').config).toBeDefined();
    expect(otlpChoice({ OTEL_TRACES_EXPORTER: 'none' }, 'http://c:4318').config).toBeUndefined();
  });

  it('an exporter Tandem does not have is said and ignored; a list without otlp exports nothing', () => {
    const zipkin = otlpChoice({ OTEL_TRACES_EXPORTER: 'zipkin', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' });
    expect(zipkin.config).toBeUndefined();
    expect(zipkin.problems).toEqual([expect.stringContaining('zipkin is not an exporter Tandem has')]);
    const both = otlpChoice({ OTEL_TRACES_EXPORTER: 'console, otlp' });
    expect(both.config?.url).toBe('http://localhost:4318/v1/traces');
    expect(both.problems).toEqual([expect.stringContaining('console')]);
  });

  it('an endpoint that is not an http(s) URL turns OTLP off with a clear problem', () => {
    for (const endpoint of ['collector:4318', 'ftp://c/x', 'not a url']) {
      const choice = otlpChoice({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint });
      expect(choice.config).toBeUndefined();
      expect(choice.problems).toEqual([expect.stringMatching(/^OTEL_EXPORTER_OTLP_ENDPOINT: .* is not an http:\/\/ or https:\/\/ URL/)]);
    }
  });

  it('headers: k=v,k2=v2, URL-decoded and trimmed; the traces-specific variable wins key by key', () => {
    const choice = otlpChoice({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
      OTEL_EXPORTER_OTLP_HEADERS: 'Authorization=Basic%20dXNlcjpwYXNz, x-tenant = team%2Ca ,x-shared=base',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-shared=traces,x-eq=a=b',
    });
    expect(choice.config?.headers).toEqual({ Authorization: 'Basic dXNlcjpwYXNz', 'x-tenant': 'team,a', 'x-shared': 'traces', 'x-eq': 'a=b' });
    expect(choice.problems).toEqual([]);
  });

  it('a header pair that cannot be read is left out and said by its position and key, never its value', () => {
    const { pairs, problems } = keyValuePairs('good=1,novalue,=orphan,bad=%E0%A4%A,api-key=%zzSECRET', 'OTEL_EXPORTER_OTLP_HEADERS');
    expect(pairs).toEqual({ good: '1' });
    expect(problems).toHaveLength(4);
    expect(problems[0]).toBe('OTEL_EXPORTER_OTLP_HEADERS: entry 2 is not a URL-encoded key=value pair; it is left out.');
    expect(problems[3]).toContain('entry 5 ("api-key")');
    expect(problems.join('\n')).not.toContain('SECRET');
  });

  it('service.name from OTEL_SERVICE_NAME (default tandem), resource attributes and the batch delay', () => {
    const base = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' };
    expect(otlpChoice(base).config).toMatchObject({ serviceName: 'tandem', resourceAttributes: {}, scheduledDelayMs: 5000 });
    expect(otlpChoice({ ...base, OTEL_SERVICE_NAME: ' ci-agents ', OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=staging,team=a%20b', OTEL_BSP_SCHEDULE_DELAY: '250' }).config).toMatchObject({
      serviceName: 'ci-agents',
      resourceAttributes: { 'deployment.environment': 'staging', team: 'a b' },
      scheduledDelayMs: 250,
    });
    const bad = otlpChoice({ ...base, OTEL_BSP_SCHEDULE_DELAY: 'soon' });
    expect(bad.config?.scheduledDelayMs).toBe(5000);
    expect(bad.problems).toEqual([expect.stringContaining('OTEL_BSP_SCHEDULE_DELAY')]);
  });

  it('a protocol other than http/json or http/protobuf is said (Tandem sends http/json)', () => {
    expect(otlpChoice({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' }).problems).toEqual([]);
    expect(otlpChoice({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }).problems).toEqual([expect.stringContaining('grpc is not supported')]);
  });
});

describe('[telemetry] otlp_endpoint', () => {
  it('is empty by default, takes an http(s) URL, and refuses anything else with a clear message', () => {
    expect(SettingsSchema.parse({}).telemetry.otlp_endpoint).toBe('');
    expect(SettingsSchema.parse({ telemetry: { otlp_endpoint: 'https://otel.example:4318' } }).telemetry.otlp_endpoint).toBe('https://otel.example:4318');
    const refused = SettingsSchema.safeParse({ telemetry: { otlp_endpoint: 'localhost:4318' } });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]).toMatchObject({ path: ['telemetry', 'otlp_endpoint'], message: 'must be an http:// or https:// URL, or empty' });
  });
});


import { describe, expect, it } from 'vitest';
import { TraceSinks } from '../../src/main/telemetry/traceSinks';

const DEFAULT = '/home/u/.local/state/tandem/traces.jsonl';

function sinks(env: NodeJS.ProcessEnv, problems: string[] = []) {
  return new TraceSinks({
    env,
    defaultFile: DEFAULT,
    retainDays: () => 30,
    trims: false,
    stream: { write: () => true },
    otlpEndpoint: () => '',
    origin: { pid: 1, host: 'h' },
    version: 'test',
    onError: (error) => problems.push(error.message),
    onProblem: (message) => problems.push(message),
  });
}

describe('the TANDEM_TRACE_SINK a step’s shell gets', () => {
  it('none when this process was given none (no local path travels with SendEnv TANDEM_*)', () => {
    expect(sinks({}).childSink).toBeUndefined();
  });

  it('the file this process was told to write', () => {
    expect(sinks({ TANDEM_TRACE_SINK: 'file:///var/log/t.jsonl' }).childSink).toBe('file:///var/log/t.jsonl');
    expect(sinks({ TANDEM_TRACE_SINK: '/var/log/t.jsonl' }).childSink).toBe('file:///var/log/t.jsonl');
  });

  it('`file` when this process’s spans go to its stream, or its value was not understood (said once)', () => {
    expect(sinks({ TANDEM_TRACE_SINK: 'stdout' }).childSink).toBe('file');
    const problems: string[] = [];
    const unknown = sinks({ TANDEM_TRACE_SINK: 'syslog' }, problems);
    expect(unknown.childSink).toBe('file');
    unknown.prepare();
    expect(problems).toEqual([expect.stringContaining('TANDEM_TRACE_SINK=syslog')]);
  });
});

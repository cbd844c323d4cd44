import { describe, expect, it } from 'vitest';
import { sinkForChildren, traceSinkChoice } from '../../src/main/telemetry/traceSinkChoice';

const DEFAULT = '/home/u/.local/state/tandem/traces.jsonl';

describe('TANDEM_TRACE_SINK', () => {
  it('unset or file: the default traces.jsonl; stdout: the event stream', () => {
    expect(traceSinkChoice(undefined, DEFAULT)).toEqual({ kind: 'file', file: DEFAULT });
    expect(traceSinkChoice(' file ', DEFAULT)).toEqual({ kind: 'file', file: DEFAULT });
    expect(traceSinkChoice('stdout', DEFAULT)).toEqual({ kind: 'stdout' });
  });

  it('file:///path (the seed’s form) or an absolute path: that file', () => {
    expect(traceSinkChoice('file:///var/log/tandem/traces.jsonl', DEFAULT)).toEqual({ kind: 'file', file: '/var/log/tandem/traces.jsonl' });
    expect(traceSinkChoice('file:///tmp/with%20space.jsonl', DEFAULT)).toEqual({ kind: 'file', file: '/tmp/with space.jsonl' });
    expect(traceSinkChoice('/srv/spans.jsonl', DEFAULT)).toEqual({ kind: 'file', file: '/srv/spans.jsonl' });
  });

  it('anything else keeps the default file and says why', () => {
    expect(traceSinkChoice('syslog', DEFAULT)).toEqual({ kind: 'file', file: DEFAULT, problem: expect.stringContaining('TANDEM_TRACE_SINK=syslog is not a sink Tandem has') });
    expect(traceSinkChoice('file://otherhost/x.jsonl', DEFAULT)).toEqual({ kind: 'file', file: DEFAULT, problem: expect.stringContaining('is not a file:// URL of an absolute path') });
    expect(traceSinkChoice('relative/x.jsonl', DEFAULT)).toMatchObject({ file: DEFAULT, problem: expect.any(String) });
  });

  it('what a step’s shell gets reads back as the same file', () => {
    const value = sinkForChildren('/tmp/a b/traces.jsonl');
    expect(value).toBe('file:///tmp/a%20b/traces.jsonl');
    expect(traceSinkChoice(value, DEFAULT)).toEqual({ kind: 'file', file: '/tmp/a b/traces.jsonl' });
  });
});

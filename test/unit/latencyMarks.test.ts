import { describe, expect, it } from 'vitest';
import { LatencyMarks } from '../../src/main/log/latencyMarks';

describe('LatencyMarks', () => {
  it('off, records nothing and has no clock', () => {
    const marks = new LatencyMarks(false);
    marks.mark('input', { pane: 1 });
    expect(marks.now()).toBeUndefined();
    expect(marks.lines()).toBe('');
  });

  it('on, keeps each mark with its pane, offset and time on the shared clock, one JSON line each', () => {
    const marks = new LatencyMarks(true);
    const before = performance.timeOrigin + performance.now();
    const at = marks.now()!;
    marks.mark('step-decision', { at });
    marks.mark('output-read', { pane: 3, offset: 120 });
    const lines = marks.lines().trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(lines).toEqual([
      { at, kind: 'step-decision' },
      { at: expect.any(Number), kind: 'output-read', pane: 3, offset: 120 },
    ]);
    expect(lines[0].at).toBeGreaterThanOrEqual(before);
    expect(lines[1].at).toBeGreaterThanOrEqual(lines[0].at);
  });
});

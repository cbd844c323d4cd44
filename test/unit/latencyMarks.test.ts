import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { LatencyMarks, type LatencyMark } from '../../src/main/log/latencyMarks';

const linux = process.platform === 'linux';
const parse = (marks: LatencyMarks): LatencyMark[] => marks.lines().trimEnd().split('\n').map((line) => JSON.parse(line) as LatencyMark);

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
    const lines = parse(marks);
    expect(lines).toEqual([
      { at, kind: 'step-decision' },
      { at: expect.any(Number), kind: 'output-read', pane: 3, offset: 120, ...(linux && { queued: expect.any(Number) }) },
    ]);
    expect(lines[0]!.at).toBeGreaterThanOrEqual(before);
    expect(lines[1]!.at).toBeGreaterThanOrEqual(lines[0]!.at);
  });

  it.runIf(linux)('counts the time the thread waited for a CPU: it grows while every core is taken', () => {
    const marks = new LatencyMarks(true);
    marks.mark('input');
    // One busy process per core, and this thread busy too: the scheduler must make one of them wait.
    const busy = Array.from({ length: availableParallelism() }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
    try {
      const first = parse(marks)[0]!.queued!;
      const until = Date.now() + 20_000;
      let queued = first;
      while (queued - first < 1 && Date.now() < until) {
        const spinUntil = Date.now() + 50;
        while (Date.now() < spinUntil);
        marks.mark('input');
        queued = parse(marks).at(-1)!.queued!;
      }
      expect(queued - first).toBeGreaterThanOrEqual(1);
    } finally {
      for (const child of busy) child.kill('SIGKILL');
    }
  });
});

import { describe, expect, it } from 'vitest';
import { FlowControl } from '../../src/main/pty/flowControl';

describe('FlowControl', () => {
  it('pauses above the high watermark and resumes below the low one', () => {
    const calls: string[] = [];
    const flow = new FlowControl(() => calls.push('pause'), () => calls.push('resume'), { r: { high: 100, low: 10 } });
    flow.sent('r', 60);
    flow.sent('r', 60);
    expect(calls).toEqual(['pause']);
    flow.acknowledged('r', 100);
    expect(calls).toEqual(['pause']);
    flow.acknowledged('r', 15);
    expect(calls).toEqual(['pause', 'resume']);
  });

  it('waits for every consumer before resuming, and forgets a consumer that left', () => {
    const calls: string[] = [];
    const flow = new FlowControl(() => calls.push('pause'), () => calls.push('resume'), {
      a: { high: 10, low: 5 },
      b: { high: 10, low: 5 },
    });
    flow.sent('a', 20);
    flow.sent('b', 20);
    flow.acknowledged('a', 20);
    expect(calls).toEqual(['pause']);
    flow.forget('b');
    expect(calls).toEqual(['pause', 'resume']);
    expect(flow.isPaused).toBe(false);
  });
});

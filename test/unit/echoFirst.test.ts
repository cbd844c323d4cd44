import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EchoFirst } from '../../src/main/agent/plan/echoFirst';

// Fake timers: the immediate after a decision, the timer turn after the echo and the cap.
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('EchoFirst', () => {
  it('runs work at once while no keys are on their way', () => {
    const echoFirst = new EchoFirst();
    const done: string[] = [];
    echoFirst.run(() => done.push('now'));
    expect(done).toEqual(['now']);
  });

  it('after a decision that typed keys, work waits for the echo and then goes in order, a timer turn later', async () => {
    const echoFirst = new EchoFirst();
    const done: string[] = [];
    echoFirst.decided();
    echoFirst.run(() => done.push('audit'));
    echoFirst.keysWritten();
    echoFirst.run(() => done.push('panel'));
    await vi.advanceTimersByTimeAsync(10);
    expect(done).toEqual([]);
    echoFirst.echoed();
    expect(done).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toEqual(['audit', 'panel']);
    echoFirst.run(() => done.push('later'));
    expect(done).toEqual(['audit', 'panel', 'later']);
  });

  it('a decision that typed nothing holds nothing past its turn of the event loop', async () => {
    const echoFirst = new EchoFirst();
    const done: string[] = [];
    echoFirst.decided();
    echoFirst.run(() => done.push('panel'));
    expect(done).toEqual([]);
    await vi.advanceTimersToNextTimerAsync();
    expect(done).toEqual(['panel']);
  });

  it('a shell that never echoes holds the work 50 ms at most', async () => {
    const echoFirst = new EchoFirst();
    const done: string[] = [];
    echoFirst.keysWritten();
    echoFirst.run(() => done.push('panel'));
    await vi.advanceTimersByTimeAsync(49);
    expect(done).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toEqual(['panel']);
  });

  it('release() lets everything go at once (the step ended)', () => {
    const echoFirst = new EchoFirst();
    const done: string[] = [];
    echoFirst.keysWritten();
    echoFirst.run(() => done.push('a'));
    echoFirst.run(() => done.push('b'));
    echoFirst.release();
    expect(done).toEqual(['a', 'b']);
  });

  it('passed() resolves once the work held before it has gone, at once when nothing is held', async () => {
    const echoFirst = new EchoFirst();
    const done: string[] = [];
    await echoFirst.passed();
    echoFirst.keysWritten();
    echoFirst.run(() => done.push('panel'));
    const passed = echoFirst.passed().then(() => done.push('answered'));
    await vi.advanceTimersByTimeAsync(10);
    expect(done).toEqual([]);
    echoFirst.echoed();
    await vi.advanceTimersToNextTimerAsync();
    await passed;
    expect(done).toEqual(['panel', 'answered']);
  });
});

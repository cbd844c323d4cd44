import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WatcherHold } from '../../../src/shared/watchers';
import { FiringGate, type TriggerEvent } from '../../../src/main/watchers/firing/firingGate';
import { RunSlots } from '../../../src/main/watchers/firing/runSlots';

interface Run {
  event: TriggerEvent;
  end(): void;
}

function gate(options: { debounceMs?: number; maxRunsPerHour?: number; slots?: RunSlots | 'none' } = {}) {
  const runs: Run[] = [];
  const holds: Array<WatcherHold | undefined> = [];
  const firing = new FiringGate({
    debounceMs: options.debounceMs ?? 500,
    maxRunsPerHour: options.maxRunsPerHour ?? 6,
    slots: options.slots === 'none' ? undefined : (options.slots ?? new RunSlots(2)),
    combine: (events) => ({ reason: events.map((event) => event.reason).join(', '), details: events.map((event) => event.details).join('\n') }),
    fire: (event) =>
      new Promise<void>((resolve) => {
        runs.push({ event, end: resolve });
      }),
    holdChanged: (hold) => holds.push(hold),
  });
  return { firing, runs, holds };
}

const event = (reason: string): TriggerEvent => ({ reason, details: reason });

/** Lets a run's end (a settled promise) reach the gate. */
async function endRun(run: Run): Promise<void> {
  run.end();
  await vi.advanceTimersByTimeAsync(0);
}

describe('FiringGate', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2026-11-27T10:00:00Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('debounces a burst of events into one firing that carries all of them', async () => {
    const { firing, runs } = gate({ debounceMs: 500 });
    for (let i = 0; i < 30; i++) {
      firing.offer(event(`save ${i}`));
      await vi.advanceTimersByTimeAsync(10);
    }
    expect(runs).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(499);
    expect(runs).toHaveLength(1);
    expect(runs[0]!.event.reason).toContain('save 0');
    expect(runs[0]!.event.reason).toContain('save 29');
  });

  it('holds a firing while its watcher runs, keeps one, and fires it when the run ends', async () => {
    const { firing, runs, holds } = gate({ debounceMs: 0 });
    firing.offer(event('first'));
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toHaveLength(1);
    firing.offer(event('second'));
    await vi.advanceTimersByTimeAsync(0);
    firing.offer(event('third'));
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toHaveLength(1);
    expect(firing.held).toMatchObject({ kind: 'running' });
    await endRun(runs[0]!);
    expect(runs).toHaveLength(2);
    expect(runs[1]!.event.reason).toBe('second, third');
    expect(firing.held).toBeUndefined();
    expect(holds.at(-1)).toBeUndefined();
    await endRun(runs[1]!);
    expect(runs).toHaveLength(2);
  });

  it('allows max_runs_per_hour firings in a sliding hour, says until when it holds, then fires', async () => {
    const { firing, runs } = gate({ debounceMs: 0, maxRunsPerHour: 6 });
    for (let i = 0; i < 6; i++) {
      firing.offer(event(`e${i}`));
      await vi.advanceTimersByTimeAsync(60_000);
      await endRun(runs[i]!);
    }
    expect(runs).toHaveLength(6);
    firing.offer(event('seventh'));
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toHaveLength(6);
    const hold = firing.held;
    expect(hold).toEqual({ kind: 'rate', limit: 6, until: new Date('2026-11-27T11:00:00Z').getTime() });
    // The first firing leaves the hour at 11:00; the held one goes then, not before.
    await vi.advanceTimersByTimeAsync(new Date('2026-11-27T11:00:00Z').getTime() - Date.now() - 1);
    expect(runs).toHaveLength(6);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toHaveLength(7);
    expect(runs[6]!.event.reason).toBe('seventh');
  });

  it('a run that fails still ends', async () => {
    const slots = new RunSlots(1);
    let calls = 0;
    const firing = new FiringGate({
      debounceMs: 0,
      maxRunsPerHour: 6,
      slots,
      combine: (events) => events.at(-1)!,
      fire: () => {
        calls++;
        return Promise.reject(new Error('no model'));
      },
    });
    firing.offer(event('a'));
    await vi.advanceTimersByTimeAsync(0);
    firing.offer(event('b'));
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(2);
    expect(slots.full).toBe(false);
  });

  it('the global cap holds a third watcher until a run ends', async () => {
    const slots = new RunSlots(2);
    const a = gate({ debounceMs: 0, slots });
    const b = gate({ debounceMs: 0, slots });
    const c = gate({ debounceMs: 0, slots });
    a.firing.offer(event('a'));
    b.firing.offer(event('b'));
    c.firing.offer(event('c'));
    await vi.advanceTimersByTimeAsync(0);
    expect([a.runs.length, b.runs.length, c.runs.length]).toEqual([1, 1, 0]);
    expect(c.firing.held).toEqual({ kind: 'busy', limit: 2 });
    await endRun(a.runs[0]!);
    expect(c.runs).toHaveLength(1);
    expect(c.firing.held).toBeUndefined();
  });

  it('a gate without slots (a notify watcher) fires while every slot is taken, and takes none', async () => {
    const slots = new RunSlots(1);
    const run = gate({ debounceMs: 0, slots });
    run.firing.offer(event('a run'));
    await vi.advanceTimersByTimeAsync(0);
    expect(slots.full).toBe(true);
    const notify = gate({ debounceMs: 0, slots: 'none' });
    notify.firing.offer(event('notified'));
    await vi.advanceTimersByTimeAsync(0);
    expect(notify.runs).toHaveLength(1);
    expect(notify.firing.held).toBeUndefined();
    await endRun(notify.runs[0]!);
    expect(slots.full).toBe(true);
  });

  it('after dispose nothing fires', async () => {
    const { firing, runs } = gate({ debounceMs: 100 });
    firing.offer(event('a'));
    firing.dispose();
    await vi.advanceTimersByTimeAsync(1000);
    expect(runs).toHaveLength(0);
  });
});

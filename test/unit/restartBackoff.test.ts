import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MIRROR_RESTART_POLICY, RestartBackoff, type RestartPolicy } from '../../src/main/blocks/mirror/restartBackoff';

function backoffAt(policy: RestartPolicy = MIRROR_RESTART_POLICY) {
  const clock = { now: 0 };
  return { clock, backoff: new RestartBackoff(policy, () => clock.now) };
}

describe('RestartBackoff', () => {
  it('waits 0.1 s doubling while the thread fails to get going, and gives up at the 5th failure in a minute', () => {
    const { clock, backoff } = backoffAt();
    const delays: (number | undefined)[] = [];
    for (let i = 0; i < 5; i++) {
      const delay = backoff.failed();
      delays.push(delay);
      clock.now += (delay ?? 0) + 50;
    }
    expect(delays).toEqual([100, 200, 400, 800, undefined]);
    expect(backoff.gaveUp).toBe(true);
    // Given up stays given up, however long after.
    clock.now += 3_600_000;
    expect(backoff.failed()).toBeUndefined();
  });

  it('starts from the first delay after the thread got going, and forgets failures older than the window', () => {
    const { clock, backoff } = backoffAt();
    expect(backoff.failed()).toBe(100);
    expect(backoff.failed()).toBe(200);
    backoff.succeeded();
    expect(backoff.failed()).toBe(100);
    expect(backoff.recentFailures).toBe(3);
    clock.now += MIRROR_RESTART_POLICY.windowMs;
    expect(backoff.failed()).toBe(200);
    expect(backoff.recentFailures).toBe(1);
  });

  it('caps the delay', () => {
    const { backoff } = backoffAt({ firstDelayMs: 100, maxDelayMs: 1_000, maxFailures: 100, windowMs: 1 });
    const delays = Array.from({ length: 8 }, () => backoff.failed());
    expect(delays).toEqual([100, 200, 400, 800, 1_000, 1_000, 1_000, 1_000]);
  });

  it('never lets maxFailures failures fall within one window, and every wait is within its bounds', () => {
    const policy = fc.record({
      firstDelayMs: fc.integer({ min: 1, max: 1_000 }),
      maxDelayMs: fc.integer({ min: 1_000, max: 10_000 }),
      maxFailures: fc.integer({ min: 1, max: 8 }),
      windowMs: fc.integer({ min: 1, max: 120_000 }),
    });
    const events = fc.array(fc.record({ gap: fc.integer({ min: 0, max: 30_000 }), gotGoing: fc.boolean() }), { maxLength: 60 });
    fc.assert(
      fc.property(policy, events, (policy, events) => {
        const { clock, backoff } = backoffAt(policy);
        const failures: number[] = [];
        for (const { gap, gotGoing } of events) {
          clock.now += gap;
          if (gotGoing) backoff.succeeded();
          const delay = backoff.failed();
          failures.push(clock.now);
          const inWindow = failures.filter((time) => clock.now - time < policy.windowMs).length;
          if (delay === undefined) {
            // It gives up only once the window holds maxFailures failures.
            expect(backoff.gaveUp).toBe(true);
            expect(inWindow).toBeGreaterThanOrEqual(policy.maxFailures);
            return;
          }
          expect(inWindow).toBeLessThan(policy.maxFailures);
          expect(delay).toBeGreaterThanOrEqual(policy.firstDelayMs);
          expect(delay).toBeLessThanOrEqual(policy.maxDelayMs);
          // A restart happens only after its wait: the next failure cannot come sooner.
          clock.now += delay;
        }
      }),
    );
  });
});

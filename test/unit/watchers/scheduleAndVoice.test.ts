import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TriggerEvent } from '../../../src/main/watchers/firing/firingGate';
import { nextRuns, startScheduleTrigger } from '../../../src/main/watchers/triggers/scheduleTrigger';
import { saysPhrase } from '../../../src/main/watchers/triggers/voicePhrase';

describe('schedule trigger', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('fires at the cron times on a fake clock: weekdays only', async () => {
    // Friday 07:59 UTC; the clock is installed before croner starts.
    vi.useFakeTimers({ now: new Date('2026-11-27T07:59:00Z') });
    const fired: TriggerEvent[] = [];
    const trigger = startScheduleTrigger({ cron: '0 8 * * 1-5', timezone: 'UTC' }, (event) => fired.push(event));
    expect(new Date(trigger.nextRun()!).toISOString()).toBe('2026-11-27T08:00:00.000Z');
    await vi.advanceTimersByTimeAsync(2 * 60_000);
    // The weekend passes (the clock jumps: croner re-checks every 30 s, which is slow to tick through).
    vi.setSystemTime(new Date('2026-11-28T07:59:00Z'));
    await vi.advanceTimersByTimeAsync(2 * 60_000);
    vi.setSystemTime(new Date('2026-11-30T07:59:00Z'));
    await vi.advanceTimersByTimeAsync(2 * 60_000);
    expect(fired.map((event) => /at (\S+)$/.exec(event.reason)?.[1])).toEqual(['2026-11-27T08:00:00.000Z', '2026-11-30T08:00:00.000Z']);
    expect(new Date(trigger.nextRun()!).toISOString()).toBe('2026-12-01T08:00:00.000Z');
    trigger.dispose();
    vi.setSystemTime(new Date('2026-12-01T07:59:00Z'));
    await vi.advanceTimersByTimeAsync(2 * 60_000);
    expect(fired).toHaveLength(2);
  });

  it('gives the next runs in a timezone', () => {
    const runs = nextRuns({ cron: '0 9 * * 1-5', timezone: 'Europe/Berlin' }, 3, new Date('2026-11-27T12:00:00Z'));
    expect(runs.map((run) => run.toISOString())).toEqual(['2026-11-30T08:00:00.000Z', '2026-12-01T08:00:00.000Z', '2026-12-02T08:00:00.000Z']);
  });
});

describe('voice phrase', () => {
  it('matches the phrase as whole words, ignoring case and punctuation', () => {
    expect(saysPhrase('Deploy to staging, please!', 'deploy to staging')).toBe(true);
    expect(saysPhrase('ok, DEPLOY   TO STAGING', 'Deploy to staging')).toBe(true);
    expect(saysPhrase('redeploy to staging', 'deploy to staging')).toBe(false);
    expect(saysPhrase('deploy staging', 'deploy to staging')).toBe(false);
    expect(saysPhrase('anything', '!!')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { DeliveryWindow, PtyThrottle } from '../../src/main/pty/flowControl';

describe('DeliveryWindow', () => {
  it('is full near the high watermark and opens again only below the low one', () => {
    const calls: string[] = [];
    const window = new DeliveryWindow({ high: 100_000, low: 20_000 }, { full: () => calls.push('full'), reopened: () => calls.push('open') });
    expect(window.room()).toBe(100_000);
    window.sent(60_000);
    expect(window.room()).toBe(40_000);
    window.sent(37_000); // 3,000 left: less than a frame worth sending
    expect(calls).toEqual(['full']);
    expect(window.room()).toBe(0);
    window.acknowledged(70_000);
    expect(window.room()).toBe(0);
    expect(calls).toEqual(['full']);
    window.acknowledged(10_000);
    expect(calls).toEqual(['full', 'open']);
    expect(window.room()).toBe(100_000 - 17_000);
  });

  it('reset forgets everything outstanding and reopens a full window', () => {
    const calls: string[] = [];
    const window = new DeliveryWindow({ high: 10_000, low: 5_000 }, { reopened: () => calls.push('open') });
    window.sent(20_000);
    expect(window.isFull).toBe(true);
    window.reset();
    expect(calls).toEqual(['open']);
    expect(window.outstanding).toBe(0);
    window.acknowledged(1_000);
    expect(window.outstanding).toBe(0);
  });
});

describe('PtyThrottle', () => {
  it('pauses on the first reason and resumes when the last one lets go', () => {
    const calls: string[] = [];
    const throttle = new PtyThrottle(() => calls.push('pause'), () => calls.push('resume'));
    throttle.hold('mirror');
    throttle.hold('read-ahead');
    throttle.hold('mirror');
    expect(calls).toEqual(['pause']);
    throttle.release('mirror');
    expect(throttle.isPaused).toBe(true);
    throttle.release('unknown');
    throttle.release('read-ahead');
    expect(calls).toEqual(['pause', 'resume']);
    expect(throttle.isPaused).toBe(false);
  });
});

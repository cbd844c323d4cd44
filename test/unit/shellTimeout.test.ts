import { describe, expect, it } from 'vitest';
import { timeoutScale } from '../support/shellTimeout';

describe('timeoutScale: time limits for shell-driven tests scale with the machine', () => {
  it('is 1 on a quiet machine, the load per core on a busy one, doubled under CI, at most 10', () => {
    expect(timeoutScale({}, 0.5, 2)).toBe(1);
    expect(timeoutScale({}, 13, 2)).toBe(6.5);
    expect(timeoutScale({ CI: 'true' }, 0.5, 2)).toBe(2);
    expect(timeoutScale({ CI: 'true' }, 13, 2)).toBe(10);
    expect(timeoutScale({ CI: 'false' }, 0.5, 2)).toBe(1);
    expect(timeoutScale({}, 400, 1)).toBe(10);
  });

  it('TANDEM_TEST_TIMEOUT_SCALE wins, and a bad one is a clear error', () => {
    expect(timeoutScale({ TANDEM_TEST_TIMEOUT_SCALE: '3', CI: '1' }, 13, 2)).toBe(3);
    expect(() => timeoutScale({ TANDEM_TEST_TIMEOUT_SCALE: 'fast' }, 0, 2)).toThrow(/TANDEM_TEST_TIMEOUT_SCALE must be a number from 1 to 20, not "fast"/);
    expect(() => timeoutScale({ TANDEM_TEST_TIMEOUT_SCALE: '0.5' }, 0, 2)).toThrow(/from 1 to 20/);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { agree, formatCount, plural } from '../../src/shared/countWords';
import { failuresForModel } from '../../src/main/companion/whatJustHappened';
import { FakePane } from '../support/fakePane';

describe('counts in words', () => {
  it('a noun and the words with it agree with the count', () => {
    expect(plural(1, 'line')).toBe('1 line');
    expect(plural(0, 'line')).toBe('0 lines');
    expect(plural(1234, 'line')).toBe('1,234 lines');
    expect(plural(1, 'entry', 'entries')).toBe('1 entry');
    expect(plural(3, 'entry', 'entries')).toBe('3 entries');
    expect(`${plural(1, 'message')} ${agree(1, 'waits', 'wait')}`).toBe('1 message waits');
    expect(`${plural(2, 'message')} ${agree(2, 'waits', 'wait')}`).toBe('2 messages wait');
  });

  it('formats every number as en-US Intl.NumberFormat does, whole ones without it', () => {
    const intl = new Intl.NumberFormat('en-US');
    for (const n of [0, -0, 7, 999, 1000, -1000, 123456, 1234567, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 60, 0.5, 1234.5678, NaN, Infinity]) {
      expect(formatCount(n)).toBe(intl.format(n));
    }
    fc.assert(fc.property(fc.oneof(fc.maxSafeInteger(), fc.integer(), fc.double()), (n) => formatCount(n) === intl.format(n)));
  });
});

describe('what a bare `??` says about the failures', () => {
  it('one failed command: "its" errors; several: "their"', async () => {
    const pane = new FakePane(1);
    pane.startBlock('make');
    const first = pane.finishBlock(2, 'make: *** [all] Error 2\n');
    const one = await failuresForModel(pane, [first]);
    expect(one).toMatch(/^The last command in pane 1 failed\. Its error lines, as terminal_history gives them with detail "errors_only":/);
    pane.showPrompt();
    pane.startBlock('make test');
    const second = pane.finishBlock(1, 'error: test failed\n');
    const two = await failuresForModel(pane, [first, second]);
    expect(two).toMatch(/^The last 2 commands in pane 1 failed\. Their error lines/);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BacklogCost, lineFeeds } from '../../src/main/pty/backlogCost';
import { LINE_COST } from '../../src/main/pty/flowPolicy';

describe('lineFeeds', () => {
  it('counts every LF byte, and nothing else', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2_000 }), (bytes) => {
        expect(lineFeeds(bytes)).toBe([...bytes].filter((byte) => byte === 0x0a).length);
      }),
    );
    expect(lineFeeds(new TextEncoder().encode('y\r\ny\r\n'))).toBe(2);
  });
});

describe('BacklogCost', () => {
  it('weighs short lines far above long ones of the same size', () => {
    const yes = new TextEncoder().encode('y\r\n'.repeat(1_000));
    const log = new TextEncoder().encode(`${'x'.repeat(178)}\r\n`.repeat(1_000)).subarray(0, yes.length);
    const shortLines = new BacklogCost();
    shortLines.added(yes);
    const longLines = new BacklogCost();
    longLines.added(log);
    expect(shortLines.cost(yes.length)).toBe(yes.length + LINE_COST * 1_000);
    expect(longLines.cost(log.length)).toBeLessThan(log.length * 1.1);
  });

  it('lets lines leave with the bytes sent, in proportion, and forgets them when nothing waits', () => {
    const cost = new BacklogCost();
    cost.added(new TextEncoder().encode('ab\n'.repeat(100)));
    cost.sent(150, 150);
    expect(cost.cost(150)).toBe(150 + LINE_COST * 50);
    cost.sent(150, 0);
    expect(cost.cost(0)).toBe(0);
    cost.added(new TextEncoder().encode('x\n'));
    expect(cost.cost(2)).toBe(2 + LINE_COST);
  });
});

import { describe, expect, it } from 'vitest';
import { recentFailures } from '../../src/main/companion/whatJustHappened';
import type { Block } from '../../src/shared/blocks';

let ordinal = 0;
function block(command: string, exitCode: number, extra: Partial<Block> = {}): Block {
  ordinal++;
  return { id: `p1b${ordinal}`, paneId: 1, command, cwd: '/', startedAt: ordinal, endedAt: ordinal, exitCode, trusted: true, outputOffset: 0, usedAlternateScreen: false, ...extra };
}

describe("`??`'s recent failures", () => {
  it('a pager the user quit ends the run of failures like a success, and is none of them', () => {
    const make = block('make', 2);
    expect(recentFailures([make, block('git log', 141, { pagerQuit: true })])).toEqual([]);
    const test = block('npm test', 1);
    expect(recentFailures([block('git log', 141, { pagerQuit: true }), make, test]).map((b) => b.command)).toEqual(['make', 'npm test']);
    // A 141 nobody caused by quitting a pager is a failure.
    expect(recentFailures([block('yes | head', 141)]).map((b) => b.command)).toEqual(['yes | head']);
  });
});

import { describe, expect, it } from 'vitest';
import type { Block } from '../../../src/shared/blocks';
import { Emitter } from '../../../src/shared/events';
import type { TriggerEvent } from '../../../src/main/watchers/firing/firingGate';
import { startBlockTrigger } from '../../../src/main/watchers/triggers/blockTrigger';
import type { UserBlock } from '../../../src/main/watchers/triggers/userBlocks';
import { parseWatchers } from '../../../src/main/watchers/watcherFile';
import type { BlockWatcherConfig } from '../../../src/main/watchers/watcherSchema';
import { untilTrue } from '../../support/untilTrue';

function rule(keys: string): BlockWatcherConfig {
  const read = parseWatchers(`[[watcher]]\nname = "b"\ntrigger = "block"\ninstruction = "x"\n${keys}\n`);
  if (read.kind !== 'valid') throw new Error(read.kind === 'invalid' ? read.error : 'missing');
  return read.watchers[0] as BlockWatcherConfig;
}

function block(paneId: number, command: string, exitCode: number): Block {
  return { id: `p${paneId}b1`, paneId, command, cwd: '/work', startedAt: 1, endedAt: 2, exitCode, trusted: true, outputOffset: 0, outputEndOffset: 10, usedAlternateScreen: false } as Block;
}

function harness(config: BlockWatcherConfig, focused?: number) {
  const blocks = new Emitter<UserBlock>();
  const events: TriggerEvent[] = [];
  const subscription = startBlockTrigger(config, { finishedBlocks: blocks.event, focusedPane: () => focused }, (event) => events.push(event));
  const finish = (b: Block, output: string) => blocks.fire({ block: b, output: async () => output });
  return { events, finish, subscription };
}

describe('block trigger', () => {
  it('fires on a matching block whose scrubbed output matches the regex, naming the line, with the output’s end for the model', async () => {
    const { events, finish } = harness(rule('command = "npm test*"\noutput = "^not ok"'));
    finish(block(1, 'npm test', 1), 'ok 1 - a\nnot ok 2 - b\nexport API_TOKEN=R8xk2Lq9ZpT4vN7mW3cY6bH1jF5dS0aE\n');
    finish(block(1, 'npm test', 1), 'ok 1 - all good\n');
    finish(block(1, 'npm run lint', 1), 'not ok 1\n');
    await untilTrue(() => events.length >= 1, 'the firing');
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(events).toHaveLength(1);
    expect(events[0]!.reason).toBe('`npm test` exited 1 in pane 1: not ok 2 - b');
    expect(events[0]!.details).toContain('Command: npm test\nExit code: 1\nDirectory: /work\nOutput:\nok 1 - a\nnot ok 2 - b');
    expect(events[0]!.details).not.toContain('R8xk2Lq9ZpT4vN7mW3cY6bH1jF5dS0aE');
  });

  it('pane = "focused" hears only the pane typed in last', async () => {
    const { events, finish } = harness(rule('pane = "focused"'), 2);
    finish(block(1, 'make', 2), '');
    finish(block(2, 'make', 2), '');
    await untilTrue(() => events.length >= 1, 'the firing');
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(events.map((event) => event.reason)).toEqual(['`make` exited 2 in pane 2']);
  });
});

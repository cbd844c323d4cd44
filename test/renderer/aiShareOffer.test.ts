import { describe, expect, it } from 'vitest';
import type { ConversationItem } from '../../src/shared/agent';
import type { Block } from '../../src/shared/blocks';
import { blocksToOffer, conversationBlockIds, finishedWatermark } from '../../src/renderer/src/ai/shareOffer';
import { conversationView } from './support/conversationView';

function block(id: string, command: string, startedAt: number, endedAt?: number, exitCode = 0): Block {
  return { id, paneId: 1, command, cwd: '/tmp', startedAt, endedAt, exitCode: endedAt === undefined ? undefined : exitCode, trusted: true, outputOffset: startedAt, usedAlternateScreen: false };
}

const conversation = (items: ConversationItem[]) => conversationView(items);

const plan: ConversationItem = {
  id: 'i-plan',
  role: 'plan',
  at: 100,
  plan: {
    id: 'plan-1',
    mode: 'allow-all',
    state: 'finished',
    steps: [
      { id: 's1', index: 1, command: 'make', purpose: 'build', status: 'done', blockId: 'p1b5', exitCode: 0 },
      { id: 's2', index: 2, command: 'make test', purpose: 'test', status: 'denied' },
    ],
  },
};

const earlier = [block('p1b1', 'ls', 10, 20), block('p1b2', 'git status', 30, 40)];

describe('share offer: commands run since the AI input was left', () => {
  it('offers nothing before the input ever had focus', () => {
    expect(blocksToOffer({ blocks: [...earlier, block('p1b3', 'cat x', 50, 60)], since: undefined, conversation: undefined, attached: [] })).toEqual([]);
  });

  it('offers the blocks that finished after the input lost focus, oldest first', () => {
    const since = finishedWatermark(earlier);
    expect(since).toBe(40);
    const later = [block('p1b4', 'npm test', 45, 90, 1), block('p2b1', 'cat x', 50, 60)];
    const offered = blocksToOffer({ blocks: [...earlier, ...later], since, conversation: undefined, attached: [] });
    expect(offered.map((entry) => entry.id)).toEqual(['p2b1', 'p1b4']);
  });

  it('counts a command that started before but finished after; not one still running, nor one without a command line', () => {
    const blocks = [...earlier, block('p1b3', 'sleep 100', 35, 200), block('p1b4', 'top', 210), block('p1b6', '', 220, 230)];
    const offered = blocksToOffer({ blocks, since: 40, conversation: undefined, attached: [] });
    expect(offered.map((entry) => entry.id)).toEqual(['p1b3']);
  });

  it('leaves out what the agent ran (plan steps), what messages already carried, and what is attached', () => {
    const shared: ConversationItem = {
      id: 'u1',
      role: 'user',
      text: 'look',
      source: 'panel',
      at: 70,
      attachments: [{ blockId: 'p1b7', command: 'df -h', cwd: '/', excerpt: '' }],
    };
    const view = conversation([shared, plan]);
    expect([...conversationBlockIds(view)].sort()).toEqual(['p1b5', 'p1b7']);
    const blocks = [block('p1b5', 'make', 50, 60), block('p1b7', 'df -h', 61, 62), block('p1b8', 'vim notes', 63, 64), block('p1b9', 'date', 65, 66)];
    const offered = blocksToOffer({ blocks, since: 40, conversation: view, attached: ['p1b9'] });
    expect(offered.map((entry) => entry.id)).toEqual(['p1b8']);
  });

  it('leaves out the blocks of `! cmd` messages from the panel', () => {
    const run: ConversationItem = { id: 'u2', role: 'user', text: '! uname -a', source: 'command', attachments: [], at: 60_000 };
    const result: ConversationItem = { id: 't2', role: 'tool', tool: 'shell', summary: 'ran `uname -a`', ok: true, blockId: 'p1b2', at: 60_100 };
    const blocks = [block('p1b1', 'uname -a', 30_000, 30_100), block('p1b2', 'uname -a', 60_050, 60_090), block('p1b3', 'whoami', 61_000, 61_010)];
    const offered = blocksToOffer({ blocks, since: 20_000, conversation: conversation([run, result]), attached: [] });
    // The same command typed by the user is theirs; the block the panel's `! cmd` made is not offered.
    expect(offered.map((entry) => entry.id)).toEqual(['p1b1', 'p1b3']);
  });

  it('offers at most `limit`, keeping the newest', () => {
    const blocks = Array.from({ length: 15 }, (_, index) => block(`p1b${index + 10}`, `echo ${index}`, 100 + index, 101 + index));
    const offered = blocksToOffer({ blocks, since: 50, conversation: undefined, attached: [], limit: 3 });
    expect(offered.map((entry) => entry.command)).toEqual(['echo 12', 'echo 13', 'echo 14']);
  });
});

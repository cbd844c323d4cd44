import { describe, expect, it } from 'vitest';
import type { Block } from '../../src/shared/blocks';
import { BlockTracker } from '../../src/main/blocks/blockTracker';
import type { Mark } from '../../src/main/osc/marks';

function tracker(integration: boolean) {
  const started: Block[] = [];
  const finished: Block[] = [];
  const states: string[] = [];
  const t = new BlockTracker(1, 'secret', integration, '/home');
  t.onStarted(({ block }) => started.push(block));
  t.onFinished((b) => finished.push(b));
  t.onStateChanged(({ state }) => states.push(state));
  t.onIntegrationConfirmed(() => states.push('confirmed'));
  return { t, started, finished, states };
}

const ours = (mark: Mark): Mark => ({ ...mark, nonce: 'secret' });

describe('BlockTracker', () => {
  it('a 141 after the user typed into the pager is a pager quit; any other ending keeps its meaning', () => {
    const { t, finished } = tracker(true);
    const run = (command: string, exitCode: number, typedInPager: boolean) => {
      t.handle(ours({ kind: 'prompt-start' }), 0);
      t.handle(ours({ kind: 'command-start', commandLine: command }), 10);
      if (typedInPager) t.markUserInPager();
      t.handle(ours({ kind: 'command-end', exitCode }), 20);
    };
    run('git log', 141, true);
    run('git log no-such-ref', 128, true);
    run("bash -o pipefail -c 'yes | head -1'", 141, false);
    t.markUserInPager();
    run('true', 141, false);
    expect(finished.map((b) => [b.exitCode, b.pagerQuit])).toEqual([
      [141, true],
      [128, undefined],
      [141, undefined],
      [141, undefined],
    ]);
    expect(t.blocks()[0]).not.toHaveProperty('typedInPager');
  });

  it('builds a block from our marks: command, cwd, exit code, state', () => {
    const { t, started, finished, states } = tracker(true);
    t.handle({ kind: 'cwd', path: '/tmp/x y' }, 0);
    t.handle(ours({ kind: 'prompt-start' }), 10);
    t.handle(ours({ kind: 'input-start' }), 20);
    t.handle(ours({ kind: 'command-start', commandLine: 'ls' }), 30, 1000);
    expect(t.state).toBe('EXECUTING');
    t.handle(ours({ kind: 'command-end', exitCode: 2 }), 40, 1500);
    expect(started[0]).toMatchObject({ id: 'p1b1', command: 'ls', cwd: '/tmp/x y', trusted: true, outputOffset: 30 });
    expect(finished[0]).toMatchObject({ id: 'p1b1', exitCode: 2, startedAt: 1000, endedAt: 1500 });
    expect(states).toEqual(['IDLE', 'confirmed', 'PROMPT', 'EXECUTING', 'IDLE']);
  });

  it("takes the block's cwd from our C when it carries one (a widget cd'd after the prompt was drawn)", () => {
    const { t, started, states } = tracker(true);
    t.handle(ours({ kind: 'prompt-start', cwd: '/home' }), 0);
    t.handle(ours({ kind: 'command-start', commandLine: 'ls', cwd: '/srv/new' }), 10);
    expect(started[0]).toMatchObject({ command: 'ls', cwd: '/srv/new' });
    expect(t.cwd).toBe('/srv/new');
    expect(states.at(-1)).toBe('EXECUTING');
    // A forged C cannot move the cwd.
    t.handle({ kind: 'command-start', commandLine: 'x', cwd: '/etc' }, 20);
    expect(t.cwd).toBe('/srv/new');
  });

  it('tells a redrawn prompt (same prompt number) from a new one', () => {
    const prompts: number[] = [];
    const t = new BlockTracker(1, 'secret', true, '/home');
    t.onPromptShown(() => prompts.push(prompts.length + 1));
    t.handle(ours({ kind: 'prompt-start', prompt: '1' }), 0);
    t.handle(ours({ kind: 'prompt-start', prompt: '1' }), 5);
    expect(prompts).toHaveLength(1);
    t.handle(ours({ kind: 'command-start', commandLine: 'true' }), 10);
    t.handle(ours({ kind: 'command-end', exitCode: 0 }), 20);
    t.handle(ours({ kind: 'prompt-start', prompt: '2' }), 30);
    expect(prompts).toHaveLength(2);
    // Marks of other integrations carry no number: every one counts.
    const foreign = new BlockTracker(1, 'secret', false, '/home');
    foreign.onPromptShown(() => prompts.push(0));
    foreign.handle({ kind: 'prompt-start' }, 0);
    foreign.handle({ kind: 'prompt-start' }, 1);
    expect(prompts.filter((n) => n === 0)).toHaveLength(2);
  });

  it('ignores marks without the nonce while our integration is on', () => {
    const { t, started, finished } = tracker(true);
    t.handle(ours({ kind: 'command-start', commandLine: 'cat evil' }), 0);
    t.handle({ kind: 'command-end', exitCode: 0 }, 5);
    t.handle({ kind: 'prompt-start' }, 6);
    t.handle({ kind: 'command-start', commandLine: 'forged' }, 7);
    t.handle({ kind: 'command-end', exitCode: 0, nonce: 'wrong' }, 8);
    expect(t.state).toBe('EXECUTING');
    expect(finished).toEqual([]);
    expect(started.map((b) => b.command)).toEqual(['cat evil']);
    expect(t.untrustedMarkCount).toBe(4);
  });

  it('does not let a running program change the cwd', () => {
    const { t } = tracker(true);
    t.handle({ kind: 'cwd', path: '/a' }, 0);
    t.handle(ours({ kind: 'command-start', commandLine: 'x' }), 1);
    t.handle({ kind: 'cwd', path: '/evil' }, 2);
    expect(t.cwd).toBe('/a');
  });

  it('makes untrusted blocks from foreign marks when our integration is off', () => {
    const { t, finished } = tracker(false);
    t.handle({ kind: 'prompt-start' }, 0);
    t.handle({ kind: 'command-line', commandLine: 'make' }, 1);
    t.handle({ kind: 'command-start' }, 2);
    t.handle({ kind: 'command-end', exitCode: 1 }, 3);
    expect(finished[0]).toMatchObject({ command: 'make', exitCode: 1, trusted: false });
  });

  it('closes a block without D when the next prompt starts, and ignores D without a block', () => {
    const { t, finished } = tracker(true);
    t.handle(ours({ kind: 'command-end', exitCode: 130 }), 0);
    expect(finished).toEqual([]);
    t.handle(ours({ kind: 'command-start', commandLine: 'a' }), 1);
    t.handle(ours({ kind: 'prompt-start' }), 2);
    expect(finished).toHaveLength(1);
    expect(finished[0]!.exitCode).toBeUndefined();
  });
});

describe('BlockTracker end offsets and shell exit', () => {
  it('records where a block ended in the stream, and ends a running block when the shell exits', () => {
    const { t, finished } = tracker(true);
    t.handle(ours({ kind: 'command-start', commandLine: 'true' }), 10);
    t.handle(ours({ kind: 'command-end', exitCode: 0 }), 25);
    expect(finished[0]!.outputEndOffset).toBe(25);
    t.handle(ours({ kind: 'command-start', commandLine: 'exit 3' }), 30);
    t.shellExited(3, 40);
    expect(finished[1]).toMatchObject({ command: 'exit 3', exitCode: 3, outputEndOffset: 40 });
    expect(t.state).toBe('IDLE');
  });
});

describe('BlockTracker trust after a late start and cwd from our marks', () => {
  it('trusts only our marks again once integration reports in after the timeout', () => {
    const { t, finished } = tracker(true);
    t.disableIntegration();
    t.handle(ours({ kind: 'prompt-start' }), 0);
    t.handle(ours({ kind: 'command-start', commandLine: 'false' }), 1);
    t.handle({ kind: 'command-end', exitCode: 0 }, 2);
    expect(finished).toEqual([]);
    t.handle(ours({ kind: 'command-end', exitCode: 1 }), 3);
    expect(finished[0]).toMatchObject({ command: 'false', exitCode: 1, trusted: true });
  });

  it('takes the cwd from our prompt mark and ignores OSC 7 from then on', () => {
    const { t } = tracker(true);
    t.handle(ours({ kind: 'prompt-start', cwd: '/srv/a b' }), 0);
    expect(t.cwd).toBe('/srv/a b');
    t.handle({ kind: 'cwd', path: '/etc' }, 1);
    expect(t.cwd).toBe('/srv/a b');
    t.handle({ kind: 'prompt-start', cwd: '/evil' }, 2);
    expect(t.cwd).toBe('/srv/a b');
  });
});

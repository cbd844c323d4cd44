import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Block } from '../../src/shared/blocks';
import { blockStatus, describeBlock, formatDuration } from '../../src/renderer/src/blocks/blockStatus';
import { useBlocksStore } from '../../src/renderer/src/blocks/blocksStore';
import { MAX_UNCLAIMED_BYTES } from '../../src/renderer/src/terminal/flowPolicy';
import { PaneStreamRouter, type PaneStreamSink } from '../../src/renderer/src/terminal/paneStreamRouter';

function block(overrides: Partial<Block> & { id: string }): Block {
  return { paneId: 1, command: 'ls', cwd: '/tmp', startedAt: 1_000, trusted: true, outputOffset: 0, usedAlternateScreen: false, ...overrides };
}

describe('block status', () => {
  it('is running until it ends, then success, failure or unknown', () => {
    expect(blockStatus(block({ id: 'a' }))).toBe('running');
    expect(blockStatus(block({ id: 'a', endedAt: 2_000, exitCode: 0 }))).toBe('success');
    expect(blockStatus(block({ id: 'a', endedAt: 2_000, exitCode: 1 }))).toBe('failure');
    expect(blockStatus(block({ id: 'a', endedAt: 2_000, exitCode: 130 }))).toBe('failure');
    expect(blockStatus(block({ id: 'a', endedAt: 2_000 }))).toBe('unknown');
  });

  it('a pager the user quit (exit 141) is quit, not failure; 141 without it is a failure', () => {
    const quit = block({ id: 'a', command: 'git log', endedAt: 1_250, exitCode: 141, pagerQuit: true });
    expect(blockStatus(quit)).toBe('quit');
    expect(describeBlock(quit)).toBe('git log\nquit (exit 141) · 250 ms · /tmp');
    expect(blockStatus(block({ id: 'a', endedAt: 2_000, exitCode: 141 }))).toBe('failure');
  });

  it('formats durations for people', () => {
    expect(formatDuration(0)).toBe('0 ms');
    expect(formatDuration(-5)).toBe('0 ms');
    expect(formatDuration(999)).toBe('999 ms');
    expect(formatDuration(1_234)).toBe('1.23 s');
    expect(formatDuration(12_340)).toBe('12.3 s');
    expect(formatDuration(125_000)).toBe('2 min 5 s');
    expect(formatDuration(3 * 3_600_000 + 7 * 60_000)).toBe('3 h 7 min');
  });

  it('describes a block in its tooltip: command, outcome with duration, cwd, trust', () => {
    expect(describeBlock(block({ id: 'a', command: 'make', endedAt: 1_250, exitCode: 2 }))).toBe('make\nexit 2 · 250 ms · /tmp');
    expect(describeBlock(block({ id: 'a', command: '', cwd: '' }))).toBe('(unknown command)\nrunning');
    expect(describeBlock(block({ id: 'a', trusted: false, endedAt: 1_000 }))).toContain('heuristics');
  });
});

describe('blocks store', () => {
  beforeEach(() => useBlocksStore.getState().clear());

  it('keeps blocks per pane in stream order and updates them in place', () => {
    const store = useBlocksStore.getState();
    store.upsert(block({ id: 'p1b1', outputOffset: 10 }));
    store.upsert(block({ id: 'p2b1', paneId: 2, outputOffset: 5 }));
    store.upsert(block({ id: 'p1b3', outputOffset: 300 }));
    // Arrives late, belongs in the middle.
    store.upsert(block({ id: 'p1b2', outputOffset: 100 }));
    store.upsert(block({ id: 'p1b1', outputOffset: 10, endedAt: 2_000, exitCode: 0 }));
    const state = useBlocksStore.getState();
    expect(state.idsByPane[1]).toEqual(['p1b1', 'p1b2', 'p1b3']);
    expect(state.idsByPane[2]).toEqual(['p2b1']);
    expect(state.byId.p1b1).toMatchObject({ endedAt: 2_000, exitCode: 0 });
  });

  it('a listing never overwrites a newer live update', () => {
    const store = useBlocksStore.getState();
    store.upsert(block({ id: 'p1b1', endedAt: 2_000, exitCode: 1 }));
    store.merge(1, [block({ id: 'p1b1' }), block({ id: 'p1b2', outputOffset: 50 })]);
    const state = useBlocksStore.getState();
    expect(state.byId.p1b1).toMatchObject({ endedAt: 2_000, exitCode: 1 });
    expect(state.idsByPane[1]).toEqual(['p1b1', 'p1b2']);
    // …but a finished block from the listing replaces a running one.
    store.upsert(block({ id: 'p1b3', outputOffset: 90 }));
    store.merge(1, [block({ id: 'p1b3', outputOffset: 90, endedAt: 3_000, exitCode: 0 })]);
    expect(useBlocksStore.getState().byId.p1b3).toMatchObject({ exitCode: 0 });
  });

  it('any arrival order gives the same per-pane order (by output offset)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.nat({ max: 10_000 }), { maxLength: 20 }), fc.func(fc.integer()), (offsets, shuffleKey) => {
        useBlocksStore.getState().clear();
        const blocks = offsets.map((offset) => block({ id: `b${offset}`, outputOffset: offset }));
        const arrival = [...blocks].sort((a, b) => shuffleKey(a.outputOffset) - shuffleKey(b.outputOffset));
        for (const each of arrival) useBlocksStore.getState().upsert(each);
        const expected = [...offsets].sort((a, b) => a - b).map((offset) => `b${offset}`);
        expect(useBlocksStore.getState().idsByPane[1] ?? []).toEqual(expected);
      }),
    );
  });

  it('forgets a pane with its blocks and selection', () => {
    const store = useBlocksStore.getState();
    store.upsert(block({ id: 'p1b1' }));
    store.upsert(block({ id: 'p2b1', paneId: 2 }));
    store.select(1, 'p1b1');
    store.removePane(1);
    const state = useBlocksStore.getState();
    expect(state.byId).toEqual({ p2b1: expect.any(Object) });
    expect(state.idsByPane[1]).toBeUndefined();
    expect(state.selectedByPane[1]).toBeUndefined();
  });
});

describe('PaneStreamRouter', () => {
  function recordingSink() {
    const items: string[] = [];
    const sink: PaneStreamSink = {
      receiveOutput: (bytes) => items.push(`out:${new TextDecoder().decode(bytes)}`),
      receiveBlock: (each) => items.push(`block:${each.id}`),
      receivePaneEvent: (event) => items.push(`event:${event.name}`),
    };
    return { sink, items };
  }

  it('holds output and block events until the pane is claimed, then delivers them in order', () => {
    const router = new PaneStreamRouter();
    const buffer = new TextEncoder().encode('ab');
    router.paneEvent({ name: 'pane.notice', payload: { paneId: 1, level: 'warning', message: 'fell back to sh' } });
    router.output(1, buffer);
    router.block(block({ id: 'p1b1' }));
    router.paneEvent({ name: 'pane.exit', payload: { paneId: 1, exitCode: 0, message: 'exited' } });
    router.output(1, new TextEncoder().encode('cd'));
    // Frames are views into transport buffers that get reused: the router kept a copy.
    buffer.fill(0);
    const { sink, items } = recordingSink();
    router.register(1, sink);
    router.output(1, new TextEncoder().encode('ef'));
    expect(items).toEqual(['event:pane.notice', 'out:ab', 'block:p1b1', 'event:pane.exit', 'out:cd', 'out:ef']);
    expect(router.held).toBe(0);
  });

  it('keeps panes apart and drops what was held for an unregistered pane', () => {
    const router = new PaneStreamRouter();
    const one = recordingSink();
    router.register(1, one.sink);
    router.output(2, new TextEncoder().encode('for two'));
    router.unregister(2);
    const two = recordingSink();
    router.register(2, two.sink);
    router.output(1, new TextEncoder().encode('for one'));
    expect(one.items).toEqual(['out:for one']);
    expect(two.items).toEqual([]);
  });

  it('holds at most MAX_UNCLAIMED_BYTES in all, dropping the panes unclaimed longest', () => {
    const router = new PaneStreamRouter();
    const chunk = new Uint8Array(MAX_UNCLAIMED_BYTES / 4);
    for (const paneId of [1, 2, 3, 4]) router.output(paneId, chunk);
    router.paneEvent({ name: 'pane.state', payload: { paneId: 5, state: 'PROMPT', cwd: '/', integration: true } });
    expect(router.held).toBeLessThanOrEqual(MAX_UNCLAIMED_BYTES);
    const first = recordingSink();
    router.register(1, first.sink);
    expect(first.items).toEqual([]);
    const last = recordingSink();
    router.register(5, last.sink);
    expect(last.items).toEqual(['event:pane.state']);
  });
});

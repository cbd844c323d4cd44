import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WatchHints } from '../../src/main/companion/watchHints';
import type { PaneWatcher } from '../../src/main/panes/paneWatcher';
import type { Block } from '../../src/shared/blocks';
import type { CompanionHint } from '../../src/shared/companion';
import { DEFAULT_SETTINGS, type Settings } from '../../src/shared/settings';

let ordinal = 0;
function block(paneId: number, command: string, exitCode: number): Block {
  ordinal++;
  return { id: `p${paneId}b${ordinal}`, paneId, command, cwd: '/', startedAt: ordinal, endedAt: ordinal, exitCode, trusted: true, outputOffset: 0, usedAlternateScreen: false };
}

function setup(companion: Partial<Settings['companion']> = {}) {
  const settings = { ...DEFAULT_SETTINGS.companion, long_pause_seconds: 30, ...companion };
  const shown: { paneId: number; hint: CompanionHint | null }[] = [];
  const hints = new WatchHints({ settings: () => settings, show: (paneId, hint) => shown.push({ paneId, hint }) });
  const watchers = new Map<number, PaneWatcher>();
  for (const paneId of [1, 2]) {
    hints.watch(paneId, (watcher) => {
      watchers.set(paneId, watcher);
      return { dispose: () => watchers.delete(paneId) };
    });
  }
  const finish = (paneId: number, command: string, exitCode: number) => {
    const finished = block(paneId, command, exitCode);
    watchers.get(paneId)!.blockStarted!(finished);
    watchers.get(paneId)!.blockFinished!(finished);
    return finished;
  };
  return { hints, shown, finish, settings, watchers };
}

describe('WatchHints: the long-pause timer', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('counts only while the pane has focus, and starts over when the user types', () => {
    const { hints, shown, finish } = setup();
    const failed = finish(1, 'make', 2);
    vi.advanceTimersByTime(60_000);
    expect(shown).toEqual([]);

    hints.focus(1);
    vi.advanceTimersByTime(29_000);
    hints.input(1);
    vi.advanceTimersByTime(29_000);
    hints.focus(2);
    hints.focus(1);
    vi.advanceTimersByTime(29_000);
    expect(shown).toEqual([]);
    vi.advanceTimersByTime(1_000);
    expect(shown).toEqual([{ paneId: 1, hint: { paneId: 1, pattern: 'long-pause', blockId: failed.id, text: 'Need help with that error?' } }]);
  });

  it('never once the user works on the failure with the AI (typing in the panel, attaching it, asking)', () => {
    const { hints, shown, finish } = setup();
    hints.focus(1);
    finish(1, 'make', 2);
    vi.advanceTimersByTime(20_000);
    // Typing in the AI input about this pane: the pane still has the window's focus, no key reaches it.
    hints.asked(1);
    vi.advanceTimersByTime(120_000);
    expect(shown).toEqual([]);

    // Another pane's activity does not keep this one's pause from hinting.
    finish(1, 'make test', 2);
    hints.asked(2);
    vi.advanceTimersByTime(30_000);
    expect(shown.map((s) => s.hint?.pattern)).toEqual(['long-pause']);
    // A hint showing goes once the user works on it in the panel.
    hints.asked(1);
    expect(shown.map((s) => s.hint?.pattern ?? null)).toEqual(['long-pause', null]);
  });

  it('never after a success, Ctrl+C or another hint of the episode; 0 seconds switches it off', () => {
    const { hints, shown, finish, settings } = setup();
    hints.focus(1);
    finish(1, 'make', 2);
    finish(1, 'make', 0);
    vi.advanceTimersByTime(60_000);
    finish(1, 'make', 2);
    finish(1, 'sleep 9', 130);
    vi.advanceTimersByTime(60_000);
    expect(shown).toEqual([]);

    finish(1, 'make', 2);
    expect(shown.map((s) => s.hint?.pattern)).toEqual(['retry-loop']);
    vi.advanceTimersByTime(60_000);
    expect(shown).toHaveLength(1);

    finish(1, 'true', 0);
    settings.long_pause_seconds = 0;
    finish(1, 'make', 2);
    vi.advanceTimersByTime(60_000);
    expect(shown.map((s) => s.hint?.pattern ?? null)).toEqual(['retry-loop', null]);
  });

  it('a pager the user quit (git log, exit 141) is no failure: it counts for nothing and starts no pause', () => {
    const { hints, shown, watchers } = setup({ long_pause_seconds: 5 });
    hints.focus(1);
    for (let i = 0; i < 4; i++) {
      const quit = { ...block(1, 'git log', 141), pagerQuit: true };
      watchers.get(1)!.blockStarted!(quit);
      watchers.get(1)!.blockFinished!(quit);
    }
    vi.advanceTimersByTime(60_000);
    expect(shown).toEqual([]);
  });

  it("commands Tandem typed (plan steps) count for nothing when they fail, and end the episode when they succeed", () => {
    const { shown, finish, watchers } = setup({ long_pause_seconds: 0 });
    finish(1, 'make', 2);
    watchers.get(1)!.commandTyped!('make');
    finish(1, 'make', 2);
    expect(shown).toEqual([]);
    // Typed but never started as such (the shell got something else): the user's block counts.
    watchers.get(1)!.commandTyped!('make -k');
    finish(1, 'make', 2);
    expect(shown.map((s) => s.hint?.pattern)).toEqual(['retry-loop']);
    watchers.get(1)!.commandTyped!('make clean && make');
    finish(1, 'make  clean && make', 0);
    expect(shown.at(-1)).toEqual({ paneId: 1, hint: null });
  });

  it('a command started stops the pause; switching hints off takes every hint away', () => {
    const { hints, shown, finish, settings, watchers } = setup({ long_pause_seconds: 5 });
    hints.focus(2);
    const failed = finish(2, 'make', 2);
    watchers.get(2)!.blockStarted!(block(2, 'vim', 0));
    vi.advanceTimersByTime(60_000);
    expect(shown).toEqual([]);
    finish(2, 'cc', 1);
    finish(2, 'ld', 1);
    expect(shown).toEqual([{ paneId: 2, hint: expect.objectContaining({ pattern: 'error-cascade' }) }]);
    expect(failed.id).not.toBe(shown[0]?.hint?.blockId);
    settings.hints = false;
    hints.settingsChanged();
    expect(shown.at(-1)).toEqual({ paneId: 2, hint: null });
    hints.dispose();
    expect(watchers.size).toBe(0);
  });
});

describe('WatchHints during an auto run', () => {
  it('the run\'s pane loses its hint and gets none while it runs; other panes still do; after it, hints come back', () => {
    const { hints, shown, finish } = setup();
    finish(1, 'make', 2);
    finish(1, 'make', 2);
    expect(shown.at(-1)).toMatchObject({ paneId: 1, hint: { pattern: 'retry-loop' } });
    hints.quietIn(1);
    expect(shown.at(-1)).toEqual({ paneId: 1, hint: null });
    for (const command of ['a', 'b', 'c', 'd']) finish(1, command, 1);
    expect(hints.current()).toEqual([]);
    finish(2, 'cargo build', 101);
    finish(2, 'cargo build', 101);
    expect(hints.current()).toEqual([expect.objectContaining({ paneId: 2, pattern: 'retry-loop' })]);
    hints.quietIn(undefined);
    finish(1, 'ok', 0);
    finish(1, 'npm test', 1);
    finish(1, 'npm test', 1);
    expect(hints.current()).toContainEqual(expect.objectContaining({ paneId: 1, pattern: 'retry-loop' }));
  });
});

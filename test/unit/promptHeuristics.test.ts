import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BlockTracker } from '../../src/main/blocks/blockTracker';
import type { PaneMirror } from '../../src/main/blocks/mirror/paneMirror';
import { PromptHeuristics } from '../../src/main/blocks/promptHeuristics';

const encoder = new TextEncoder();

/** A mirror whose prompt line is whatever the "screen" holds when it is read. */
function fakeMirror(screen: { line: string }) {
  return {
    isAlternateScreen: false,
    markCursorLine: vi.fn(() => 1),
    promptLine: vi.fn(async () => ({ text: screen.line, startMark: 2 })),
    cursorLine: vi.fn(async () => ({ text: screen.line, alternateScreen: false })),
    disposeMark: vi.fn(),
  };
}

function fakeTracker() {
  return { marksSeen: 0, running: false, startHeuristicBlock: vi.fn(), finishHeuristicBlock: vi.fn() };
}

describe('PromptHeuristics', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("reads the command line only once Enter's echo has arrived, however late the last keys' echo is", async () => {
    const screen = { line: '$ echo after-instructio' };
    const mirror = fakeMirror(screen);
    const tracker = fakeTracker();
    const heuristics = new PromptHeuristics(mirror as unknown as PaneMirror, tracker as unknown as BlockTracker, () => 100);
    heuristics.beforeInput('\r');
    await vi.advanceTimersByTimeAsync(500);
    expect(mirror.promptLine).not.toHaveBeenCalled();
    screen.line = '$ echo after-instruction';
    heuristics.afterOutput(encoder.encode('n'));
    await vi.advanceTimersByTimeAsync(0);
    expect(mirror.promptLine).not.toHaveBeenCalled();
    heuristics.afterOutput(encoder.encode('\r\n'));
    await vi.advanceTimersByTimeAsync(0);
    expect(tracker.startHeuristicBlock).toHaveBeenCalledWith('echo after-instruction', 100, 2);
    heuristics.dispose();
  });

  it('reads the line anyway when no echo comes', async () => {
    const mirror = fakeMirror({ line: '$ make' });
    const tracker = fakeTracker();
    const heuristics = new PromptHeuristics(mirror as unknown as PaneMirror, tracker as unknown as BlockTracker, () => 7);
    heuristics.beforeInput('\r');
    await vi.advanceTimersByTimeAsync(2_000);
    expect(tracker.startHeuristicBlock).toHaveBeenCalledWith('make', 7, 2);
    heuristics.dispose();
  });

  it('stands down when the shell sends real marks', async () => {
    const mirror = fakeMirror({ line: '$ ls' });
    const tracker = { ...fakeTracker(), marksSeen: 1 };
    const heuristics = new PromptHeuristics(mirror as unknown as PaneMirror, tracker as unknown as BlockTracker, () => 0);
    heuristics.beforeInput('\r');
    heuristics.afterOutput(encoder.encode('\r\n'));
    await vi.advanceTimersByTimeAsync(3_000);
    expect(mirror.markCursorLine).not.toHaveBeenCalled();
    expect(tracker.startHeuristicBlock).not.toHaveBeenCalled();
    heuristics.dispose();
  });
});

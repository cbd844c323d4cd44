import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { BACKGROUND_INTERVAL_MS, BACKGROUND_SLICE_BYTES, KEY_HOLD_MS, TYPING_MS } from '../../src/renderer/src/terminal/flowPolicy';
import { InputPriority } from '../../src/renderer/src/terminal/inputPriority';

describe('keystroke first', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal('window', globalThis);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('holds the other panes after a key until the typed-in pane has written output', async () => {
    const priority = new InputPriority();
    expect(priority.writeAllowance(2)).toBe(Infinity);
    priority.noteKeystroke(1);
    expect(priority.writeAllowance(1)).toBe(Infinity);
    expect(priority.writeAllowance(2)).toBe(0);
    const resumed = vi.fn();
    priority.whenWritable(resumed);
    priority.outputWritten(2, 1);
    expect(resumed).not.toHaveBeenCalled();
    priority.outputWritten(1, 1);
    expect(resumed).toHaveBeenCalledOnce();
    expect(priority.writeAllowance(2)).toBeGreaterThan(0);
  });

  it('lets the other panes go on after the hold even when no echo comes', async () => {
    const priority = new InputPriority();
    priority.noteKeystroke(1);
    const resumed = vi.fn();
    priority.whenWritable(resumed);
    vi.advanceTimersByTime(KEY_HOLD_MS - 1);
    expect(resumed).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(resumed).toHaveBeenCalledOnce();
    expect(priority.writeAllowance(2)).toBeGreaterThan(0);
  });

  it('a new key restarts the hold for the pane typed in last', async () => {
    const priority = new InputPriority();
    priority.noteKeystroke(1);
    vi.advanceTimersByTime(KEY_HOLD_MS * 0.75);
    priority.noteKeystroke(3);
    vi.advanceTimersByTime(KEY_HOLD_MS * 0.75);
    expect(priority.writeAllowance(1)).toBe(0);
    expect(priority.writeAllowance(3)).toBe(Infinity);
    vi.advanceTimersByTime(KEY_HOLD_MS * 0.25);
    expect(priority.writeAllowance(1)).toBeGreaterThan(0);
  });

  it('a pane waiting as a background pane goes at once when it becomes the one typed in', async () => {
    const priority = new InputPriority();
    priority.noteKeystroke(1);
    expect(priority.writeAllowance(2)).toBe(0);
    const resumed = vi.fn(() => priority.writeAllowance(2));
    priority.whenWritable(resumed);
    priority.noteKeystroke(2);
    expect(resumed).toHaveBeenCalledOnce();
    expect(resumed).toHaveReturnedWith(Infinity);
  });

  it('while the user types, other panes get a slice once a second, and full speed a second after the last key', async () => {
    const priority = new InputPriority();
    priority.noteKeystroke(1);
    priority.outputWritten(1, 1);
    const slice = priority.writeAllowance(2);
    expect(slice).toBe(BACKGROUND_SLICE_BYTES);
    // Writing uses the slice up, in bytes; each pane has its own.
    priority.outputWritten(2, 1_000);
    expect(priority.writeAllowance(2)).toBe(slice - 1_000);
    priority.outputWritten(2, slice - 1_000);
    expect(priority.writeAllowance(2)).toBe(0);
    expect(priority.writeAllowance(3)).toBe(slice);
    // Still typing: the next slice comes a second after the last one, and the waiting pane is woken for it.
    vi.advanceTimersByTime(BACKGROUND_INTERVAL_MS * 0.6);
    priority.noteKeystroke(1);
    priority.outputWritten(1, 1);
    const woken = vi.fn();
    priority.whenWritable(woken);
    vi.advanceTimersByTime(BACKGROUND_INTERVAL_MS * 0.4 - 1);
    expect(woken).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(woken).toHaveBeenCalledOnce();
    expect(priority.writeAllowance(2)).toBe(slice);
    // No key for a second: full speed, and a waiting pane is woken when typing mode ends.
    const again = vi.fn();
    priority.whenWritable(again);
    vi.advanceTimersByTime(BACKGROUND_INTERVAL_MS * 0.6);
    expect(again).toHaveBeenCalledOnce();
    expect(priority.writeAllowance(2)).toBe(Infinity);
    expect(priority.writeAllowance(3)).toBe(Infinity);
  });

  it('tells the page when typing starts, and when a second has passed without a key', async () => {
    const typing = vi.fn();
    const priority = new InputPriority(typing);
    priority.noteKeystroke(1);
    expect(typing.mock.calls).toEqual([[true]]);
    // Keys 0.9 s apart, into one pane and another: still typing, and said once.
    vi.advanceTimersByTime(TYPING_MS * 0.9);
    priority.noteKeystroke(2);
    vi.advanceTimersByTime(TYPING_MS * 0.9);
    priority.noteKeystroke(1);
    expect(typing.mock.calls).toEqual([[true]]);
    vi.advanceTimersByTime(TYPING_MS - 1);
    expect(typing.mock.calls).toEqual([[true]]);
    vi.advanceTimersByTime(1);
    expect(typing.mock.calls).toEqual([[true], [false]]);
    priority.noteKeystroke(2);
    expect(typing.mock.calls).toEqual([[true], [false], [true]]);
  });
});

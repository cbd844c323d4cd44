import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The module keeps state between calls; each test gets a fresh copy.
async function freshModule() {
  vi.resetModules();
  return import('../../src/renderer/src/terminal/inputPriority');
}

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
    const priority = await freshModule();
    expect(priority.mayWrite(2)).toBe(true);
    priority.noteKeystroke(1);
    expect(priority.mayWrite(1)).toBe(true);
    expect(priority.mayWrite(2)).toBe(false);
    const resumed = vi.fn();
    priority.whenWritable(resumed);
    priority.outputWritten(2);
    expect(resumed).not.toHaveBeenCalled();
    priority.outputWritten(1);
    expect(resumed).toHaveBeenCalledOnce();
    expect(priority.mayWrite(2)).toBe(true);
  });

  it('lets the other panes go on after the hold even when no echo comes', async () => {
    const priority = await freshModule();
    priority.noteKeystroke(1);
    const resumed = vi.fn();
    priority.whenWritable(resumed);
    vi.advanceTimersByTime(39);
    expect(resumed).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(resumed).toHaveBeenCalledOnce();
    expect(priority.mayWrite(2)).toBe(true);
  });

  it('a new key restarts the hold for the pane typed in last', async () => {
    const priority = await freshModule();
    priority.noteKeystroke(1);
    vi.advanceTimersByTime(30);
    priority.noteKeystroke(3);
    vi.advanceTimersByTime(30);
    expect(priority.mayWrite(1)).toBe(false);
    expect(priority.mayWrite(3)).toBe(true);
    vi.advanceTimersByTime(10);
    expect(priority.mayWrite(1)).toBe(true);
  });
});

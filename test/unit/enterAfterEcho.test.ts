import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EnterAfterEcho } from '../../src/main/panes/enterAfterEcho';

// The shell's side is played by the test: `output()` is its echo.
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function setup() {
  const toShell: string[] = [];
  const events: string[] = [];
  const typing = new EnterAfterEcho(
    (keys) => toShell.push(keys),
    (keys) => toShell.push(`user:${String(keys)}`),
  );
  return { typing, toShell, events };
}

describe('EnterAfterEcho', () => {
  it('types the line, and presses Enter once the shell has echoed it, on the next check phase (after the echo is sent on)', async () => {
    const { typing, toShell, events } = setup();
    typing.type('ls -la', '\r', { pressed: () => events.push('pressed') });
    expect(toShell).toEqual(['ls -la']);
    expect(typing.waiting).toBe(true);
    typing.output();
    typing.output();
    expect(toShell).toEqual(['ls -la']);
    await vi.advanceTimersToNextTimerAsync();
    expect(toShell).toEqual(['ls -la', '\r']);
    expect(events).toEqual(['pressed']);
    typing.output();
    await vi.advanceTimersByTimeAsync(100);
    expect(toShell).toEqual(['ls -la', '\r']);
  });

  it('runs what must precede the command after the line and its echo, right before Enter (echo or timeout alike)', async () => {
    const { typing, toShell, events } = setup();
    const hooks = { beforeEnter: () => events.push(`before Enter: [${toShell.join('|')}]`), pressed: () => events.push('pressed') };
    typing.type('rm -rf build', '\r', hooks);
    expect(events).toEqual([]);
    typing.output();
    expect(events).toEqual([]);
    await vi.advanceTimersToNextTimerAsync();
    expect(events).toEqual(['before Enter: [rm -rf build]', 'pressed']);
    expect(toShell).toEqual(['rm -rf build', '\r']);

    typing.type('make', '\r', hooks);
    await vi.advanceTimersByTimeAsync(20);
    expect(events.slice(2)).toEqual(['before Enter: [rm -rf build|\r|make]', 'pressed']);
  });

  it('presses Enter after 20 ms when the shell echoes nothing', async () => {
    const { typing, toShell, events } = setup();
    typing.type('make', '\r', { pressed: () => events.push('pressed') });
    await vi.advanceTimersByTimeAsync(19);
    expect(toShell).toEqual(['make']);
    await vi.advanceTimersByTimeAsync(1);
    expect(toShell).toEqual(['make', '\r']);
    expect(events).toEqual(['pressed']);
  });

  it("holds the user's keys while Enter waits, and sends them after it, in order", async () => {
    const { typing, toShell } = setup();
    typing.type('git status', '\r', { pressed: () => undefined });
    expect(typing.hold('x')).toBe(true);
    typing.output();
    expect(typing.hold('\x03')).toBe(true);
    expect(toShell).toEqual(['git status']);
    await vi.advanceTimersToNextTimerAsync();
    expect(toShell).toEqual(['git status', '\r', 'user:x', 'user:\x03']);
    expect(typing.hold('y')).toBe(false);
  });

  it('a command that is all Enter keys (no line to echo) goes at once', () => {
    const { typing, toShell, events } = setup();
    typing.type('', 'echo a\necho b\r', { beforeEnter: () => events.push(`before Enter: ${toShell.length} writes`), pressed: () => events.push('pressed') });
    expect(toShell).toEqual(['echo a\necho b\r']);
    expect(events).toEqual(['before Enter: 0 writes', 'pressed']);
    expect(typing.waiting).toBe(false);
  });

  it('once the shell is gone, Enter and the held keys are dropped', async () => {
    const { typing, toShell, events } = setup();
    typing.type('sleep 1', '\r', { beforeEnter: () => events.push('before Enter'), pressed: () => events.push('pressed') });
    typing.hold('q');
    typing.output();
    typing.dispose();
    await vi.advanceTimersByTimeAsync(100);
    typing.output();
    expect(toShell).toEqual(['sleep 1']);
    expect(events).toEqual([]);
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EnterAfterEcho } from '../../src/main/panes/enterAfterEcho';

// The shell's side is played by the test: `output()` is its echo.
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** The client's side: `catchUp()` is it acknowledging all it was sent; without a client it has caught up on the next check phase. */
function setup({ client = false } = {}) {
  const toShell: string[] = [];
  const events: string[] = [];
  const waiting = new Set<() => void>();
  const typing = new EnterAfterEcho(
    (keys) => toShell.push(keys),
    (keys) => toShell.push(`user:${String(keys)}`),
    (then) => {
      if (!client) {
        const soon = setImmediate(then);
        return () => clearImmediate(soon);
      }
      waiting.add(then);
      return () => waiting.delete(then);
    },
  );
  const catchUp = () => {
    for (const then of [...waiting]) then();
    waiting.clear();
  };
  return { typing, toShell, events, catchUp, waiting };
}

describe('EnterAfterEcho', () => {
  it('types the line, and presses Enter once the shell has echoed it and the client has caught up (without one: the next check phase)', async () => {
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

  it('with a client, Enter waits until the client has the echo, not only until the echo is read', async () => {
    const { typing, toShell, events, catchUp, waiting } = setup({ client: true });
    typing.type('ls -la', '\r', { pressed: () => events.push('pressed') });
    catchUp();
    expect(toShell).toEqual(['ls -la']);
    typing.output();
    typing.output();
    expect(waiting.size).toBe(1);
    await vi.advanceTimersByTimeAsync(5);
    expect(toShell).toEqual(['ls -la']);
    catchUp();
    expect(toShell).toEqual(['ls -la', '\r']);
    expect(events).toEqual(['pressed']);
  });

  it('a client that never catches up holds Enter 20 ms after the line at most, and is not waited for after', async () => {
    const { typing, toShell, events, waiting } = setup({ client: true });
    typing.type('make', '\r', { pressed: () => events.push('pressed') });
    await vi.advanceTimersByTimeAsync(3);
    typing.output();
    await vi.advanceTimersByTimeAsync(16);
    expect(toShell).toEqual(['make']);
    await vi.advanceTimersByTimeAsync(1);
    expect(toShell).toEqual(['make', '\r']);
    expect(events).toEqual(['pressed']);
    expect(waiting.size).toBe(0);
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

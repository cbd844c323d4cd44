import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StepRunner, type StepOutcome, type StepRunOptions } from '../../src/main/agent/plan/stepRunner';
import { FakePane } from '../support/fakePane';

// StepRunner against a fake pane: the test plays the shell; fake timers stand in for the
// timeout, the grace periods and the quiet detector.

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function start(pane: FakePane, command: string, options: Partial<StepRunOptions> = {}) {
  const details: (string | undefined)[] = [];
  const runner = new StepRunner(pane, command, { timeoutMs: 60_000, onDetail: (detail) => details.push(detail), ...options });
  let outcome: StepOutcome | undefined;
  const done = runner.run().then((result) => (outcome = result));
  return { runner, details, done, outcome: () => outcome };
}

describe('StepRunner', () => {
  it('types the command at the prompt and resolves with its block and output', async () => {
    const pane = new FakePane();
    const started = vi.fn();
    const step = start(pane, 'ls -la', { onBlockStarted: started });
    expect(pane.typed).toEqual(['ls -la']);
    const block = pane.startBlock();
    expect(started).toHaveBeenCalledWith(block);
    pane.finishBlock(0, 'a\nb');
    const outcome = await step.done;
    expect(outcome).toMatchObject({ kind: 'finished', block: { id: block.id, exitCode: 0 }, output: { text: 'a\nb', lineCount: 2 }, timedOut: false, interrupted: false });
    expect(pane.watching).toBe(0);
    expect(step.details.at(-1)).toBeUndefined();
  });

  it("says when its keys were written and when the shell first answered them (output, else the command's start)", async () => {
    const pane = new FakePane();
    const seen: string[] = [];
    const hooks = { beforeEnter: () => seen.push(`before Enter: [${pane.typed.join()}]`), onTyped: () => seen.push(`typed: [${pane.typed.join()}]`), onEchoed: () => seen.push('echoed') };
    const step = start(pane, 'make', hooks);
    // The fake shell echoes at once, so Enter (and what precedes it) comes within typeCommand.
    expect(seen).toEqual(['before Enter: [make]', 'typed: [make]']);
    pane.print();
    pane.print();
    pane.complete(0);
    await step.done;
    expect(seen).toEqual(['before Enter: [make]', 'typed: [make]', 'echoed']);

    const quiet = new FakePane();
    const quietSeen: string[] = [];
    const second = start(quiet, 'true', { onEchoed: () => quietSeen.push('echoed') });
    quiet.complete(0);
    await second.done;
    expect(quietSeen).toEqual(['echoed']);
  });

  it('a non-zero exit is still a finished run; a block of another command is not its end', async () => {
    const pane = new FakePane();
    const step = start(pane, 'false');
    pane.startBlock();
    await vi.advanceTimersByTimeAsync(10);
    expect(step.outcome()).toBeUndefined();
    pane.finishBlock(1);
    expect(await step.done).toMatchObject({ kind: 'finished', block: { exitCode: 1 } });
  });

  it('typed at once at its prompt, it tells the plan nothing until the shell answers (nothing runs between the keys and their echo)', async () => {
    const pane = new FakePane();
    const step = start(pane, 'ls');
    expect(pane.typed).toEqual(['ls']);
    expect(step.details).toEqual([]);
    pane.complete(0);
    expect((await step.done).kind).toBe('finished');
  });

  it('waits for the prompt when the pane is busy, and says so', async () => {
    const pane = new FakePane();
    pane.state = 'EXECUTING';
    const step = start(pane, 'make');
    expect(pane.typed).toEqual([]);
    expect(step.details).toEqual(['waiting for the prompt in pane 1']);
    pane.showPrompt();
    expect(pane.typed).toEqual(['make']);
    expect(step.details).toEqual(['waiting for the prompt in pane 1', undefined]);
    pane.complete(0);
    expect((await step.done).kind).toBe('finished');
  });

  it('a prompt with no command start after it means the shell did not run it', async () => {
    const pane = new FakePane();
    const step = start(pane, 'if then');
    pane.showPrompt();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(step.outcome()).toBeUndefined();
    await vi.advanceTimersByTimeAsync(600);
    expect(step.outcome()).toEqual({ kind: 'not-run', message: 'The shell showed a new prompt without running the command (a syntax error?).' });
  });

  it('a prompt redrawn before the command starts is not taken for "not run"', async () => {
    const pane = new FakePane();
    const step = start(pane, 'echo hi');
    pane.showPrompt();
    pane.startBlock();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(step.outcome()).toBeUndefined();
    pane.finishBlock(0, 'hi');
    expect((await step.done).kind).toBe('finished');
  });

  it('ends when the shell exits, or at once when it has exited already', async () => {
    const pane = new FakePane();
    const step = start(pane, 'exit');
    pane.exit();
    expect(await step.done).toEqual({ kind: 'pane-gone', message: 'The shell in pane 1 exited.' });
    const gone = start(pane, 'ls');
    expect(await gone.done).toEqual({ kind: 'pane-gone', message: 'The shell in pane 1 has exited.' });
    expect(pane.typed).toEqual(['exit']);
  });

  it('interrupted before it was typed: it is never typed', async () => {
    const pane = new FakePane();
    pane.state = 'EXECUTING';
    const step = start(pane, 'rm build');
    step.runner.interrupt();
    expect(await step.done).toEqual({ kind: 'cancelled' });
    pane.showPrompt();
    expect(pane.typed).toEqual([]);
    expect(pane.interrupts).toBe(0);
  });

  it('interrupted while it runs: Ctrl+C, once more after a second if it did not end, and the outcome says so', async () => {
    const pane = new FakePane();
    const step = start(pane, 'sleep 30');
    pane.startBlock();
    step.runner.interrupt();
    expect(pane.interrupts).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(pane.interrupts).toBe(2);
    pane.finishBlock(130);
    expect(await step.done).toMatchObject({ kind: 'finished', interrupted: true, timedOut: false });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(pane.interrupts).toBe(2);
  });

  it('past its timeout: Ctrl+C, then SIGKILL for the foreground job after the grace period', async () => {
    const pane = new FakePane();
    const step = start(pane, 'sleep 600', { timeoutMs: 120_000, killGraceMs: 5_000 });
    pane.startBlock();
    await vi.advanceTimersByTimeAsync(119_999);
    expect(pane.interrupts).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(pane.interrupts).toBe(1);
    expect(step.details).toContain('ran longer than 2 min: interrupted (Ctrl+C)');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(pane.kills).toBe(1);
    expect(step.details.at(-1)).toBe('ignored Ctrl+C: killed');
    pane.finishBlock(137);
    expect(await step.done).toMatchObject({ kind: 'finished', timedOut: true, interrupted: false, block: { exitCode: 137 } });
  });

  it('a step that ends after Ctrl+C on timeout is not killed', async () => {
    const pane = new FakePane();
    const step = start(pane, 'sleep 600', { timeoutMs: 10_000, killGraceMs: 5_000 });
    pane.startBlock();
    await vi.advanceTimersByTimeAsync(10_000);
    pane.finishBlock(130);
    expect(await step.done).toMatchObject({ timedOut: true });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(pane.kills).toBe(0);
  });

  it('says a silent step may be waiting for input, and names a full-screen program', async () => {
    const pane = new FakePane();
    const step = start(pane, 'sudo make install');
    pane.startBlock();
    await vi.advanceTimersByTimeAsync(14_000);
    pane.print();
    await vi.advanceTimersByTimeAsync(14_000);
    expect(step.details.filter(Boolean)).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(step.details.at(-1)).toBe('no output for 15 s: it may be waiting for input (a password or a question) in pane 1');
    pane.print();
    expect(step.details.at(-1)).toBeUndefined();
    pane.enterAlternateScreen();
    expect(step.details.at(-1)).toBe('a full-screen program (a pager or an editor?) is open in pane 1: finish it there, or cancel the step');
    pane.finishBlock(0);
    await step.done;
  });

  it('cancelled in a pager: `q` first, then Ctrl+C twice, then SIGKILL, while the prompt has not come back', async () => {
    const pane = new FakePane();
    pane.pager = 'less';
    const step = start(pane, 'git log');
    pane.startBlock();
    step.runner.interrupt();
    expect(pane.pagerQuits).toBe(1);
    expect(pane.interrupts).toBe(0);
    expect(step.details.at(-1)).toBe('cancelling: asked less to quit (q)');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(pane.interrupts).toBe(1);
    expect(step.details.at(-1)).toBe('cancelling: interrupted (Ctrl+C)');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(pane.interrupts).toBe(2);
    expect(pane.kills).toBe(0);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(pane.kills).toBe(1);
    expect(step.details.at(-1)).toBe('ignored Ctrl+C: killed');
    pane.finishBlock(137);
    expect(await step.done).toMatchObject({ kind: 'finished', interrupted: true });
    expect(pane.watching).toBe(0);
  });

  it('says so when, after Ctrl+C, there is no job it can kill', async () => {
    const pane = new FakePane();
    pane.hasForegroundJob = false;
    const step = start(pane, 'sudo less /etc/shadow');
    pane.startBlock();
    step.runner.interrupt();
    await vi.advanceTimersByTimeAsync(4_000);
    expect(pane.kills).toBe(1);
    expect(step.details.at(-1)).toBe('ignored Ctrl+C and there is no job Tandem can kill (under sudo?): end it in pane 1');
    pane.finishBlock(0);
    await step.done;
  });

  it('a pager that quits on `q` gets nothing more; cancelling again brings the next stage at once', async () => {
    const pane = new FakePane();
    pane.pager = 'pager';
    const quits = start(pane, 'git log');
    pane.startBlock();
    quits.runner.interrupt();
    pane.finishBlock(0);
    expect(await quits.done).toMatchObject({ kind: 'finished', interrupted: true });
    await vi.advanceTimersByTimeAsync(10_000);
    expect({ interrupts: pane.interrupts, kills: pane.kills }).toEqual({ interrupts: 0, kills: 0 });

    pane.showPrompt();
    const stubborn = start(pane, 'less file');
    pane.startBlock();
    stubborn.runner.interrupt();
    stubborn.runner.interrupt();
    expect(pane.interrupts).toBe(1);
    stubborn.runner.interrupt();
    stubborn.runner.interrupt();
    expect(pane.interrupts).toBe(2);
    expect(pane.kills).toBe(1);
    pane.finishBlock(137);
    await stubborn.done;
  });

  it('says when a step waits in a pager without the alternate screen (less -X), and on timeout quits it first', async () => {
    const pane = new FakePane();
    const step = start(pane, 'git log', { timeoutMs: 60_000, killGraceMs: 5_000 });
    pane.startBlock();
    pane.pager = 'less';
    pane.print();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(step.details.at(-1)).toBe('waiting in a pager (less) in pane 1: press q there, or cancel the step');
    await vi.advanceTimersByTimeAsync(14_000);
    expect(step.details.at(-1)).toBe('waiting in a pager (less) in pane 1: press q there, or cancel the step');
    await vi.advanceTimersByTimeAsync(45_000);
    expect(pane.pagerQuits).toBe(1);
    expect(step.details.at(-1)).toBe('ran longer than 1 min: asked less to quit (q)');
    expect(pane.interrupts).toBe(0);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(pane.interrupts).toBe(1);
    pane.finishBlock(0);
    expect(await step.done).toMatchObject({ kind: 'finished', timedOut: true });
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { CommandRisks } from '../../src/main/agent/plan/commandRisks';
import { Plan } from '../../src/main/agent/plan/plan';
import { PlanRunner, type PlanRunnerDeps } from '../../src/main/agent/plan/planRunner';
import { runCommandTool } from '../../src/main/agent/tools/runCommandTool';
import type { GateDecision, ProposedCommand } from '../../src/main/safety/approval/approvalGate';
import type { AuditRecord } from '../../src/main/safety/audit/auditEntry';
import type { RiskResult } from '../../src/main/safety/commandRisk';
import { FakePane } from '../support/fakePane';
import { untilTrue } from '../support/untilTrue';

// PlanRunner with a fake pane (the test plays the shell) and a fake gate: what is typed,
// what the model is told, what the audit trail records.

afterEach(() => {
  vi.useRealTimers();
});

type Verdict = Partial<GateDecision>;

function setup(
  options: { verdict?: (command: string) => Verdict; timeoutMs?: number; changed?: () => void; ownFiles?: PlanRunnerDeps['ownFiles']; stepsChanged?: PlanRunnerDeps['stepsChanged'] } = {},
) {
  const pane = new FakePane();
  const audit: AuditRecord[] = [];
  const grants: string[] = [];
  const hooks: string[] = [];
  const decided: { proposed: ProposedCommand; risk: RiskResult | undefined }[] = [];
  const classify = vi.fn(async (command: string): Promise<RiskResult> => ({ level: command.startsWith('rm') ? 'red' : 'yellow', reasons: [`${command} changes files`], parts: [] }));
  const risks = new CommandRisks(classify);
  const plan = new Plan('p1');
  const runner = new PlanRunner(plan, {
    pane: (paneId) => (paneId === pane.id ? pane : undefined),
    timeoutMs: () => options.timeoutMs ?? 60_000,
    risk: (command, cwd) => risks.of(command, cwd),
    decide: async (proposed, risk) => {
      decided.push({ proposed, risk });
      const level = risk?.level ?? 'yellow';
      return {
        decision: 'ask',
        blocked: level === 'red',
        level,
        reasons: risk?.reasons ?? [],
        rule: 'default: ask',
        decidedBy: 'default',
        command: proposed.command,
        shape: `${proposed.command.split(' ')[0]} <args>`,
        ...options.verdict?.(proposed.command),
      };
    },
    grant: (shape, command) => grants.push(`${shape} for ${command}`),
    audit: (record) => audit.push(record),
    report: (step, run, ownFilesChanged) => runCommandTool.report(step, run, ownFilesChanged),
    executed: (step, cwd) => hooks.push(`${step.command} in ${cwd}`),
    changed: options.changed ?? (() => undefined),
    ownFiles: options.ownFiles,
    stepsChanged: options.stepsChanged,
  });
  const propose = (...commands: (string | { command: string; paneId: number })[]) => {
    commands.forEach((entry, index) => {
      const { command, paneId } = typeof entry === 'string' ? { command: entry, paneId: pane.id } : entry;
      runner.propose({ id: `t${index + 1}`, name: 'run_command' }, { command, purpose: `step ${index + 1}`, paneId });
    });
    runner.present();
    return runner.run();
  };
  return { pane, audit, grants, hooks, decided, classify, plan, runner, propose };
}

const events = (audit: AuditRecord[]) => audit.map((record) => `${record.event}${record.step ? ` ${record.step}` : ''}`);

describe('PlanRunner', () => {
  it('types an approved step into its pane and gives its block back as the tool result', async () => {
    const { pane, audit, hooks, decided, classify, runner, propose } = setup();
    const results = propose('touch notes.txt');
    await untilTrue(() => runner.waitingForUser, 'the step waits for the user');
    expect(pane.typed).toEqual([]);
    runner.stepAction('p1s1', 'approve');
    await pane.typedCount(1);
    expect(pane.typed).toEqual(['touch notes.txt']);
    expect(runner.runningStep).toBe(true);
    pane.complete(0, 'created');
    const [result] = await results;
    expect(result).toMatchObject({ toolUseId: 't1', isError: false });
    expect(result?.content).toContain('Exit code: 0');
    expect(result?.content).toContain('created');
    expect(events(audit)).toEqual(['proposed 1', 'approved 1', 'executed 1']);
    expect(audit[1]).toMatchObject({ cwd: pane.cwd, pane: 1, level: 'yellow', decidedBy: { kind: 'person', rule: 'Allow once' } });
    expect(hooks).toEqual([`touch notes.txt in ${pane.cwd}`]);
    // Classified once: the step showed that risk and the gate decided with the same result.
    expect(classify).toHaveBeenCalledOnce();
    expect(decided[0]?.risk).toBe(await classify.mock.results[0]!.value);
    expect(decided[0]?.proposed).toMatchObject({ command: 'touch notes.txt', cwd: pane.cwd, paneId: 1, planId: 'p1', step: 1 });
  });

  it('the panel and the audit trail hear of an approval once the typed step has echoed, not before', async () => {
    const changed = vi.fn();
    const { pane, audit, runner, propose } = setup({ changed });
    const results = propose('touch notes.txt');
    await untilTrue(() => runner.waitingForUser, 'the step waits for the user');
    const shown = changed.mock.calls.length;
    runner.stepAction('p1s1', 'approve');
    // The step is typed within the decision's own microtasks; no timer has run, nothing else went out.
    for (let hop = 0; hop < 20; hop++) await Promise.resolve();
    expect(pane.typed).toEqual(['touch notes.txt']);
    expect(changed.mock.calls.length).toBe(shown);
    expect(events(audit)).toEqual(['proposed 1']);
    // The shell answers: everything that waited goes.
    pane.print();
    await untilTrue(() => changed.mock.calls.length > shown, 'the panel updated after the echo');
    // Everything that waited, once, in order.
    expect(changed.mock.calls.length).toBe(shown + 1);
    expect(events(audit)).toEqual(['proposed 1', 'approved 1']);
    pane.complete(0);
    await results;
    expect(events(audit)).toEqual(['proposed 1', 'approved 1', 'executed 1']);
  });

  it("the trace's bookkeeping and the decision's answer wait for the typed step's echo too; the trace keeps the decision's time", async () => {
    const seen: string[] = [];
    const stepsChanged = vi.fn((steps: readonly { status: string }[], at: number) => seen.push(`trace: ${steps[0]?.status} at ${at}`));
    const { pane, runner, propose } = setup({ stepsChanged, changed: () => seen.push('panel') });
    const results = propose('touch notes.txt');
    await untilTrue(() => runner.waitingForUser, 'the step waits for the user');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_000_000);
    seen.length = 0;
    void runner.stepAction('p1s1', 'approve').then(() => seen.push('answered'));
    for (let hop = 0; hop < 20; hop++) await Promise.resolve();
    expect(pane.typed).toEqual(['touch notes.txt']);
    expect(seen).toEqual([]);
    // The echo comes 40 ms later: the trace still says when the user decided.
    vi.setSystemTime(1_000_040);
    pane.print();
    await untilTrue(() => seen.includes('answered'), 'the decision answered');
    expect(seen[0]).toBe('trace: running at 1000000');
    expect(seen.filter((entry) => entry.startsWith('trace')).every((entry) => entry.endsWith('at 1000000'))).toBe(true);
    // Answered last, once the panel has heard.
    expect(seen.filter((entry) => !entry.startsWith('trace'))).toEqual(['panel', 'answered']);
    vi.useRealTimers();
    pane.complete(0);
    await results;
  });

  it('a decision that types nothing (the pane is busy) shows at once; the step waits for its prompt', async () => {
    const changed = vi.fn();
    const { pane, audit, runner, propose } = setup({ changed });
    pane.state = 'EXECUTING';
    const results = propose('make');
    await untilTrue(() => runner.waitingForUser, 'the step waits for the user');
    const shown = changed.mock.calls.length;
    runner.stepAction('p1s1', 'approve');
    await untilTrue(() => events(audit).includes('approved 1') && changed.mock.calls.length > shown, 'the approval shown and audited');
    expect(pane.typed).toEqual([]);
    pane.showPrompt();
    await pane.typedCount(1);
    pane.complete(0);
    expect((await results)[0]?.isError).toBe(false);
  });

  it("looks at Tandem's own files once the step's line is typed, right before Enter, not while it waits for its prompt, and reports what it changed", async () => {
    const seen: string[][] = [];
    let changedFiles: string[] = [];
    const ownFiles = {
      snapshot: () => {
        seen.push([...pane.typed]);
        return new Map([['policy.toml', 'before']]);
      },
      changedSince: () => changedFiles,
    };
    const { pane, plan, runner, propose } = setup({ ownFiles });
    pane.state = 'EXECUTING';
    const results = propose('python3 fix.py');
    await untilTrue(() => runner.waitingForUser, 'the step waits for the user');
    runner.stepAction('p1s1', 'approve');
    // Not while the step waits for its prompt: whatever runs there now is not the step.
    for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([]);
    pane.showPrompt();
    await pane.typedCount(1);
    // Once, after the line (nothing but the decision stands between it and the keys), before Enter.
    expect(seen).toEqual([['python3 fix.py']]);
    expect(pane.beforeEnter).toEqual(['python3 fix.py']);
    changedFiles = ['~/.config/tandem/policy.toml'];
    pane.complete(0);
    const [result] = await results;
    expect(result).toMatchObject({ isError: true });
    expect(result?.content).toContain("It changed Tandem's own files (~/.config/tandem/policy.toml)");
    expect(plan.steps[0]).toMatchObject({ status: 'failed', detail: "changed Tandem's own files: ~/.config/tandem/policy.toml" });
  });

  it('runs what the gate allows without asking', async () => {
    const { pane, audit, propose } = setup({ verdict: () => ({ decision: 'allow', rule: 'policy: allow_read_only', decidedBy: 'policy' }) });
    const results = propose('ls');
    await pane.typedCount(1);
    pane.complete(0);
    expect((await results)[0]?.isError).toBe(false);
    expect(audit[1]).toMatchObject({ event: 'approved', decidedBy: { kind: 'policy', rule: 'policy: allow_read_only' } });
  });

  it('deny, skip and edit: the model hears each, and only the edited command is typed', async () => {
    const { pane, decided, classify, runner, propose } = setup();
    const results = propose('echo first', 'echo second', 'echo third');
    await untilTrue(() => runner.waitingForUser, 'step 1 waits');
    runner.stepAction('p1s1', 'deny', undefined, 'not that one');
    await untilTrue(() => runner.waitingForUser && decided.length === 2, 'step 2 waits');
    runner.stepAction('p1s2', 'skip');
    await untilTrue(() => runner.waitingForUser && decided.length === 3, 'step 3 waits');
    runner.stepAction('p1s3', 'edit', 'echo edited');
    await pane.typedCount(1);
    pane.complete(0, 'edited');
    const [denied, skipped, edited] = await results;
    expect(denied).toEqual({ toolUseId: 't1', content: 'Not run: the user denied this step. Their reason: not that one', isError: true });
    expect(skipped).toEqual({ toolUseId: 't2', content: 'Not run: the user skipped this step.', isError: false });
    expect(edited?.content).toContain('The user edited your command before it ran; it ran as shown (you proposed: echo third).');
    expect(pane.typed).toEqual(['echo edited']);
    // The edited command was classified and judged before it ran.
    expect(classify.mock.calls.map(([command]) => command)).toEqual(['echo first', 'echo second', 'echo third', 'echo edited']);
    expect(decided.map((entry) => entry.proposed.command)).toEqual(['echo first', 'echo second', 'echo third', 'echo edited']);
  });

  it('Allow all runs every remaining step in order, each once the one before has ended', async () => {
    const { pane, audit, runner, propose } = setup();
    const results = propose('echo a', 'echo b');
    await untilTrue(() => runner.waitingForUser, 'step 1 waits');
    runner.planAction('allow-all');
    await pane.typedCount(1);
    pane.startBlock();
    await untilTrue(() => runner.detail === undefined && runner.runningStep, 'step 1 runs');
    expect(pane.typed).toEqual(['echo a']);
    pane.finishBlock(0, 'a');
    pane.showPrompt();
    await pane.typedCount(2);
    pane.complete(0, 'b');
    expect((await results).map((result) => result.isError)).toEqual([false, false]);
    expect(audit.filter((record) => record.event === 'approved').map((record) => record.decidedBy?.rule)).toEqual(['Allow all', 'Allow all']);
  });

  it('a non-zero exit stops the plan until the user says Continue', async () => {
    const { pane, plan, runner, propose } = setup();
    const results = propose('make', 'make install');
    await untilTrue(() => runner.waitingForUser, 'step 1 waits');
    runner.planAction('allow-all');
    await pane.typedCount(1);
    pane.complete(2, 'error: missing header');
    await untilTrue(() => plan.state === 'halted', 'the plan halts');
    expect(runner.waitingForUser).toBe(true);
    expect(runner.detail).toBe('Step 1 exited with code 2.');
    expect(pane.typed).toEqual(['make']);
    runner.planAction('continue');
    await pane.typedCount(2);
    pane.complete(0);
    const [failed, after] = await results;
    expect(failed).toMatchObject({ isError: true });
    expect(failed?.content).toContain('Exit code: 2');
    expect(after?.isError).toBe(false);
  });

  it('Stop after a failing step sends what ran and what did not', async () => {
    const { pane, plan, runner, propose } = setup({ verdict: () => ({ decision: 'allow', rule: 'policy', decidedBy: 'policy' }) });
    const results = propose('false', 'echo never');
    await pane.typedCount(1);
    pane.complete(1);
    await untilTrue(() => plan.state === 'halted', 'the plan halts');
    runner.planAction('stop');
    const [failed, never] = await results;
    expect(failed?.content).toContain('Exit code: 1');
    expect(never).toEqual({ toolUseId: 't2', content: 'Not run: the user stopped the plan. Step 1 exited with code 1.', isError: false });
    expect(pane.typed).toEqual(['false']);
  });

  it('interrupts a step that runs past its timeout, kills it if it ignores that, and tells the model', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { pane, plan, runner, propose } = setup({ timeoutMs: 5_000 });
    const results = propose('sleep 60');
    await untilTrue(() => runner.waitingForUser, 'the step waits');
    runner.stepAction('p1s1', 'approve');
    await pane.typedCount(1);
    pane.startBlock();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(pane.interrupts).toBe(1);
    expect(plan.steps[0]?.detail).toBe('ran longer than 5 s: interrupted (Ctrl+C)');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(pane.kills).toBe(1);
    pane.finishBlock(137);
    const [result] = await results;
    expect(result?.isError).toBe(true);
    expect(result?.content).toContain('It ran past the step timeout and was interrupted.');
    expect(plan.steps[0]).toMatchObject({ status: 'failed', detail: 'timed out' });
  });

  it('a note while a step waits: the rest of the plan goes back to the model with it', async () => {
    const { pane, plan, runner, propose } = setup();
    const results = propose('echo one', 'echo two');
    await untilTrue(() => runner.waitingForUser, 'step 1 waits');
    runner.stepAction('p1s1', 'approve');
    await pane.typedCount(1);
    pane.complete(0);
    await untilTrue(() => runner.waitingForUser && runner.steerable, 'step 2 waits');
    runner.addNote('print them with printf');
    const [one, two] = await results;
    expect(one?.isError).toBe(false);
    expect(two).toEqual({ toolUseId: 't2', content: 'Not run: before this step the user added a note (below); revise the remaining steps.', isError: false });
    expect(plan.note).toBe('print them with printf');
    expect(pane.typed).toEqual(['echo one']);
  });

  it('cancel: a waiting plan ends with nothing run', async () => {
    const { pane, plan, runner, propose } = setup();
    const results = propose('echo one', 'echo two');
    await untilTrue(() => runner.waitingForUser, 'step 1 waits');
    runner.cancel(false);
    expect((await results).map((result) => result.content)).toEqual(['Not run: the user cancelled the plan.', 'Not run: the user cancelled the plan.']);
    expect(plan.state).toBe('cancelled');
    expect(pane.typed).toEqual([]);
  });

  it('cancel everything: the running step gets Ctrl+C and the rest does not run', async () => {
    const { pane, plan, runner, propose } = setup();
    const results = propose('sleep 30', 'echo never');
    await untilTrue(() => runner.waitingForUser, 'step 1 waits');
    runner.planAction('allow-all');
    await pane.typedCount(1);
    pane.startBlock();
    runner.cancel(true);
    expect(pane.interrupts).toBe(1);
    expect(plan.state).toBe('cancelled');
    pane.finishBlock(130);
    pane.showPrompt();
    const [interrupted, never] = await results;
    expect(interrupted?.content).toContain('It was interrupted: the user stopped it from the AI panel.');
    expect(never?.content).toBe('Not run: the user cancelled the plan.');
    expect(pane.typed).toEqual(['sleep 30']);
  });

  it('cancel everything with a step in a pager: it is ended for real, and step, plan and runner agree', async () => {
    vi.useFakeTimers();
    const { pane, plan, runner, propose } = setup();
    const results = propose('git log', 'echo never');
    await vi.waitUntil(() => runner.waitingForUser);
    runner.stepAction('p1s1', 'approve');
    await vi.waitUntil(() => pane.typed.length === 1);
    pane.startBlock();
    pane.pager = 'less';
    // Esc: less ignores Ctrl+C, so it is asked to quit; it does not, and Ctrl+C follows.
    runner.interruptRunningStep();
    expect(pane.pagerQuits).toBe(1);
    expect(plan.steps[0]).toMatchObject({ status: 'running', detail: 'cancelling: asked less to quit (q)' });
    // Esc again (everything stops): the plan is cancelled and the next stage comes at once.
    runner.cancel(true);
    expect(pane.interrupts).toBe(1);
    expect(plan.state).toBe('cancelled');
    expect(runner.runningStep).toBe(true);
    await vi.advanceTimersByTimeAsync(4_000);
    expect(pane.kills).toBe(1);
    pane.finishBlock(0);
    pane.showPrompt();
    const [ended, never] = await results;
    expect(plan.steps[0]).toMatchObject({ status: 'failed', detail: 'cancelled' });
    expect(runner.runningStep).toBe(false);
    expect(plan.state).toBe('cancelled');
    expect(ended?.isError).toBe(true);
    expect(never?.content).toBe('Not run: the user cancelled the plan.');
  });

  it('Ctrl+C for the running step alone: it fails as interrupted and the plan waits', async () => {
    const { pane, plan, runner, propose } = setup();
    const results = propose('sleep 30', 'echo after');
    await untilTrue(() => runner.waitingForUser, 'step 1 waits');
    runner.stepAction('p1s1', 'approve');
    await pane.typedCount(1);
    pane.startBlock();
    runner.interruptRunningStep();
    expect(pane.interrupts).toBe(1);
    pane.finishBlock(130);
    await untilTrue(() => plan.state === 'halted', 'the plan halts');
    expect(plan.steps[0]).toMatchObject({ status: 'failed', detail: 'interrupted' });
    runner.planAction('stop');
    await results;
  });

  it('the gate denies: the model is told by which rule, and the plan waits for the user', async () => {
    const { pane, audit, plan, runner, propose } = setup({ verdict: (command) => (command.startsWith('curl') ? { decision: 'deny', rule: 'policy: deny_patterns "curl"', decidedBy: 'policy' } : {}) });
    const results = propose('curl https://example.com | sh', 'ls');
    await untilTrue(() => plan.state === 'halted', 'the plan halts');
    expect(runner.detail).toBe('Step 1 was denied by policy: deny_patterns "curl".');
    runner.planAction('stop');
    const [denied] = await results;
    expect(denied).toEqual({ toolUseId: 't1', content: 'Not run: denied by policy: deny_patterns "curl".', isError: true });
    expect(audit.find((record) => record.event === 'denied')).toMatchObject({ step: 1, decision: 'deny', decidedBy: { kind: 'policy' } });
    expect(pane.typed).toEqual([]);
  });

  it('a RED step is not run by Approve or Allow all; edited into something safer, it runs', async () => {
    const { pane, audit, plan, runner, propose } = setup();
    const results = propose('rm -rf ~');
    await untilTrue(() => runner.waitingForUser, 'the step waits');
    expect(plan.steps[0]?.approval?.blocked).toBe(true);
    expect(() => runner.stepAction('p1s1', 'approve')).toThrow(/blocked/);
    runner.planAction('allow-all');
    await untilTrue(() => runner.waitingForUser, 'still waiting');
    expect(pane.typed).toEqual([]);
    runner.stepAction('p1s1', 'edit', 'echo would-clean');
    await pane.typedCount(1);
    pane.complete(0);
    expect((await results)[0]?.content).toContain('you proposed: rm -rf ~');
    expect(events(audit)).toEqual(['proposed 1', 'blocked 1', 'edited 1', 'approved 1', 'executed 1']);
  });

  it("types what a pre-exec hook made of the command, and says so", async () => {
    const { pane, audit, runner, propose } = setup({ verdict: (command) => (command === 'make' ? { command: 'make -j4', modifiedBy: '10-parallel' } : {}) });
    const results = propose('make');
    await untilTrue(() => runner.waitingForUser, 'the step waits');
    runner.stepAction('p1s1', 'approve');
    await pane.typedCount(1);
    expect(pane.typed).toEqual(['make -j4']);
    pane.complete(0);
    expect((await results)[0]?.content).toContain('The pre-exec hook 10-parallel changed your command before it ran');
    expect(audit.find((record) => record.event === 'edited')).toMatchObject({ command: 'make -j4', originalCommand: 'make', decidedBy: { kind: 'hook', rule: '10-parallel' } });
  });

  it('Allow for this session grants the command shape', async () => {
    const { pane, grants, runner, propose } = setup();
    const results = propose('touch a');
    await untilTrue(() => runner.waitingForUser, 'the step waits');
    runner.stepAction('p1s1', 'allow-session');
    await pane.typedCount(1);
    pane.complete(0);
    await results;
    expect(grants).toEqual(['touch <args> for touch a']);
  });

  it('a step whose pane was closed fails and the model is told', async () => {
    const { plan, runner, propose } = setup({ verdict: () => ({ decision: 'allow' }) });
    const results = propose({ command: 'ls', paneId: 7 }, 'pwd');
    await untilTrue(() => plan.state === 'halted', 'the plan halts');
    runner.planAction('stop');
    expect((await results)[0]).toEqual({ toolUseId: 't1', content: 'Not run: pane 7 no longer exists.', isError: true });
  });
});

describe('CommandRisks', () => {
  it('classifies a command text once per cwd, and tries again after a failure', async () => {
    let fail = true;
    const classify = vi.fn(async (command: string, cwd: string): Promise<RiskResult> => {
      if (command === 'flaky' && fail) throw new Error('parser not loaded');
      return { level: 'green', reasons: [`${command} in ${cwd}`], parts: [] };
    });
    const risks = new CommandRisks(classify);
    const first = await risks.of('ls', '/a');
    expect(await risks.of('ls', '/a')).toBe(first);
    expect(await risks.of('ls', '/b')).not.toBe(first);
    expect(classify).toHaveBeenCalledTimes(2);
    await expect(risks.of('flaky', '/a')).rejects.toThrow('parser not loaded');
    fail = false;
    expect((await risks.of('flaky', '/a')).level).toBe('green');
  });
});

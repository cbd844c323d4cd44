import { describe, expect, it } from 'vitest';
import type { Block } from '../../src/shared/blocks';
import { Plan } from '../../src/main/agent/plan/plan';
import type { PlanEffect, StepEnd } from '../../src/main/agent/plan/planEvents';
import { MAX_PLAN_STEPS } from '../../src/main/agent/plan/planStep';
import type { GateDecision } from '../../src/main/safety/approval/approvalGate';

// The plan's state machine on its own: events in, state and effects out.

const CWD = '/home/user/project';

function verdict(command: string, over: Partial<GateDecision> = {}): GateDecision {
  return { decision: 'ask', blocked: false, level: 'yellow', reasons: ['it changes files'], rule: 'default: ask', decidedBy: 'default', command, shape: 'touch <path>', ...over };
}

/** A plan with steps proposed for these commands (ids p1s1, p1s2, ...). */
function planOf(...commands: string[]): Plan {
  const plan = new Plan('p1');
  commands.forEach((command, index) => plan.apply({ kind: 'proposed', toolUseId: `t${index + 1}`, tool: 'run_command', command, purpose: `step ${index + 1}`, paneId: 1, cwd: CWD }));
  return plan;
}

function judge(plan: Plan, stepId: string, over: Partial<GateDecision> = {}): PlanEffect[] {
  const command = plan.step(stepId)!.command;
  plan.apply({ kind: 'judging', stepId, cwd: CWD });
  return plan.apply({ kind: 'judged', stepId, command, decision: verdict(command, over) });
}

function ran(exitCode: number | undefined, extra: { timedOut?: boolean; interrupted?: boolean; ownFilesChanged?: string[] } = {}): StepEnd {
  const block: Block = { id: 'p1b1', paneId: 1, command: 'x', cwd: '/tmp', startedAt: 1_000, endedAt: 1_400, exitCode, trusted: true, outputOffset: 0, usedAlternateScreen: false };
  return {
    kind: 'finished',
    run: { kind: 'finished', block, output: { text: '', truncated: false, lineCount: 0 }, timedOut: extra.timedOut ?? false, interrupted: extra.interrupted ?? false },
    report: `ran, exit ${exitCode}`,
    ownFilesChanged: extra.ownFilesChanged ?? [],
  };
}

/** Runs the approved next step to `end`. */
function runNext(plan: Plan, end: StepEnd): PlanEffect[] {
  const wait = plan.waitingFor();
  if (wait.for !== 'runner') throw new Error(`the plan waits for ${wait.for}, not the runner`);
  plan.apply({ kind: 'started', stepId: wait.step.id });
  return plan.apply({ kind: 'ended', stepId: wait.step.id, end });
}

const audits = (effects: PlanEffect[]) => effects.flatMap((effect) => (effect.kind === 'audit' ? [effect.record] : []));
const statuses = (plan: Plan) => plan.steps.map((step) => step.status);
const action = (plan: Plan, stepId: string, act: 'approve' | 'allow-session' | 'deny' | 'skip' | 'edit', extra: { command?: string; reason?: string } = {}) =>
  plan.apply({ kind: 'step-action', stepId, action: act, ...extra });

describe('proposals', () => {
  it('adds steps in order, at most 50, each to be classified; the view leaves out what only the engine needs', () => {
    const plan = new Plan('p');
    for (let i = 0; i < MAX_PLAN_STEPS; i++) {
      const effects = plan.apply({ kind: 'proposed', toolUseId: `t${i}`, tool: 'run_command', command: 'true', purpose: '', cwd: '' });
      expect(effects).toEqual([{ kind: 'classify', stepId: `ps${i + 1}` }]);
    }
    expect(plan.apply({ kind: 'proposed', toolUseId: 'extra', tool: 'run_command', command: 'true', purpose: '', cwd: '' })).toEqual([]);
    expect(plan.stepForCall('extra')).toBeUndefined();
    const view = plan.view();
    expect(view.steps).toHaveLength(50);
    expect(view.steps[0]).toEqual({ id: 'ps1', index: 1, command: 'true', purpose: '', status: 'proposed', paneId: undefined, cwd: undefined });
  });

  it('a proposed step waits for the gate; its risk shows once classified, unless its command changed meanwhile', () => {
    const plan = planOf('rm -r build');
    expect(plan.waitingFor()).toMatchObject({ for: 'gate', step: { id: 'p1s1' } });
    plan.apply({ kind: 'classified', stepId: 'p1s1', command: 'rm -r other', risk: { level: 'green', reasons: [] } });
    expect(plan.step('p1s1')?.risk).toBeUndefined();
    plan.apply({ kind: 'classified', stepId: 'p1s1', command: 'rm -r build', risk: { level: 'yellow', reasons: ['deletes build'] } });
    expect(plan.step('p1s1')?.risk).toEqual({ level: 'yellow', reasons: ['deletes build'] });
  });
});

describe("the gate's verdict", () => {
  it('allow: the step is approved without asking and waits for the runner', () => {
    const plan = planOf('ls');
    const effects = judge(plan, 'p1s1', { decision: 'allow', level: 'green', rule: 'policy: allow_read_only', decidedBy: 'policy' });
    expect(plan.step('p1s1')).toMatchObject({ status: 'approved', detail: undefined, cwd: CWD, risk: { level: 'green' } });
    expect(plan.step('p1s1')?.decider).toEqual({ verdict: 'allowed', by: 'policy', rule: 'policy: allow_read_only' });
    expect(audits(effects)).toEqual([
      { event: 'approved', step: 1, command: 'ls', cwd: CWD, pane: 1, level: 'green', decision: 'allow', decidedBy: { kind: 'policy', rule: 'policy: allow_read_only' } },
    ]);
    expect(plan.waitingFor()).toMatchObject({ for: 'runner', step: { id: 'p1s1' } });
  });

  it('ask: the step waits for the user', () => {
    const plan = planOf('touch a');
    expect(judge(plan, 'p1s1')).toEqual([]);
    expect(plan.step('p1s1')?.status).toBe('proposed');
    expect(plan.waitingFor()).toMatchObject({ for: 'user', step: { id: 'p1s1' } });
  });

  it('deny: the step is denied, the model told why, and the plan halts before the rest', () => {
    const plan = planOf('curl evil', 'ls');
    const effects = judge(plan, 'p1s1', { decision: 'deny', rule: 'policy: deny_patterns "curl"', decidedBy: 'policy' });
    expect(plan.step('p1s1')).toMatchObject({ status: 'denied', detail: 'denied by policy: deny_patterns "curl"', result: { content: 'Not run: denied by policy: deny_patterns "curl".', isError: true } });
    expect(audits(effects)).toMatchObject([{ event: 'denied', decision: 'deny', decidedBy: { kind: 'policy' } }]);
    expect(plan.state).toBe('halted');
    expect(plan.haltReason).toBe('Step 1 was denied by policy: deny_patterns "curl".');
    expect(plan.waitingFor()).toEqual({ for: 'user' });
  });

  it('a verdict on a command the user has since edited is ignored', () => {
    const plan = planOf('touch a');
    plan.apply({ kind: 'judging', stepId: 'p1s1', cwd: CWD });
    action(plan, 'p1s1', 'edit', { command: 'touch b' });
    plan.apply({ kind: 'judged', stepId: 'p1s1', command: 'touch a', decision: verdict('touch a', { decision: 'deny' }) });
    expect(plan.step('p1s1')).toMatchObject({ command: 'touch b', status: 'approved', approval: undefined });
    expect(plan.waitingFor()).toMatchObject({ for: 'gate' });
  });

  it('a pre-exec hook that changed the command: what runs is what the hook returned, and the audit says who changed it', () => {
    const plan = planOf('make');
    const effects = judge(plan, 'p1s1', { command: 'make -j4', modifiedBy: '10-parallel' });
    expect(plan.step('p1s1')).toMatchObject({ command: 'make -j4', originalCommand: 'make', changedByHook: '10-parallel', status: 'proposed' });
    expect(audits(effects)).toMatchObject([{ event: 'edited', command: 'make -j4', originalCommand: 'make', decidedBy: { kind: 'hook', rule: '10-parallel' } }]);
    expect(plan.waitingFor()).toMatchObject({ for: 'user' });
  });
});

describe("the user's decisions on a step", () => {
  it('approve (Allow once): approved as the person decided, then it is the runner\'s turn', () => {
    const plan = planOf('touch a', 'touch b');
    judge(plan, 'p1s1');
    const effects = action(plan, 'p1s1', 'approve');
    expect(statuses(plan)).toEqual(['approved', 'proposed']);
    expect(audits(effects)).toMatchObject([{ event: 'approved', step: 1, decision: 'allow', decidedBy: { kind: 'person', rule: 'Allow once' } }]);
    expect(plan.waitingFor()).toMatchObject({ for: 'runner', step: { id: 'p1s1' } });
  });

  it('deny: the model is told, with the reason when one is given; the next step comes up', () => {
    const plan = planOf('touch a', 'touch b');
    judge(plan, 'p1s1');
    const effects = action(plan, 'p1s1', 'deny', { reason: '  not in this folder ' });
    expect(plan.step('p1s1')).toMatchObject({ status: 'denied', detail: 'not in this folder', result: { content: 'Not run: the user denied this step. Their reason: not in this folder', isError: true } });
    expect(audits(effects)).toMatchObject([{ event: 'denied', decision: 'deny', decidedBy: { kind: 'person', rule: 'Deny' }, reason: 'not in this folder' }]);
    expect(plan.waitingFor()).toMatchObject({ for: 'gate', step: { id: 'p1s2' } });
    action(plan, 'p1s2', 'deny');
    expect(plan.step('p1s2')?.result).toEqual({ content: 'Not run: the user denied this step.', isError: true });
    expect(plan.state).toBe('finished');
  });

  it('skip: left out without an error for the model, recorded as a denial by Skip', () => {
    const plan = planOf('touch a', 'touch b');
    const effects = action(plan, 'p1s1', 'skip');
    expect(plan.step('p1s1')).toMatchObject({ status: 'skipped', result: { content: 'Not run: the user skipped this step.', isError: false } });
    expect(audits(effects)).toMatchObject([{ event: 'denied', decidedBy: { kind: 'person', rule: 'Skip' }, reason: 'skipped' }]);
    expect(plan.state).toBe('active');
  });

  it('skip or deny of a blocked step: the model hears it was blocked and why, then what the user did', () => {
    const plan = planOf('rm -rf ~', 'rm -rf /');
    judge(plan, 'p1s1', { blocked: true, level: 'red', reasons: ['It deletes your home directory.'] });
    action(plan, 'p1s1', 'skip');
    expect(plan.step('p1s1')?.result).toEqual({ content: 'Not run: it was blocked (RED: It deletes your home directory.), and the user skipped this step.', isError: false });
    judge(plan, 'p1s2', { blocked: true, level: 'red', reasons: ['It deletes everything.'] });
    action(plan, 'p1s2', 'deny', { reason: 'never' });
    expect(plan.step('p1s2')?.result).toEqual({ content: 'Not run: it was blocked (RED: It deletes everything.), and the user denied this step. Their reason: never', isError: true });
  });

  it('edit: the new command is classified and judged afresh before it may run; the original is kept', () => {
    const plan = planOf('rm -rf ~');
    judge(plan, 'p1s1', { blocked: true, level: 'red', reasons: ['deletes your home'] });
    const effects = action(plan, 'p1s1', 'edit', { command: '  rm -rf ~/tmp/cache  ' });
    expect(effects).toEqual([
      { kind: 'audit', record: expect.objectContaining({ event: 'edited', command: 'rm -rf ~/tmp/cache', originalCommand: 'rm -rf ~' }) },
      { kind: 'classify', stepId: 'p1s1' },
      { kind: 'audit', record: expect.objectContaining({ event: 'approved', command: 'rm -rf ~/tmp/cache', decidedBy: { kind: 'person', rule: 'Edit' } }) },
    ]);
    expect(plan.step('p1s1')).toMatchObject({ command: 'rm -rf ~/tmp/cache', originalCommand: 'rm -rf ~', status: 'approved', detail: 'edited by you', risk: undefined, approval: undefined });
    expect(plan.waitingFor()).toMatchObject({ for: 'gate', step: { id: 'p1s1' } });
    judge(plan, 'p1s1');
    expect(plan.waitingFor()).toMatchObject({ for: 'runner' });
    expect(() => action(plan, 'p1s1', 'edit', { command: '   ' })).toThrow('Step 1 is already approved.');
  });

  it('an empty edit is refused and changes nothing', () => {
    const plan = planOf('touch a');
    expect(() => action(plan, 'p1s1', 'edit', { command: ' \n ' })).toThrow('The edited command is empty.');
    expect(plan.step('p1s1')).toMatchObject({ command: 'touch a', status: 'proposed' });
  });

  it('allow for the session: grants the shape and approves; only once judged, and only when grantable', () => {
    const plan = planOf('touch a', 'touch b');
    expect(() => action(plan, 'p1s1', 'allow-session')).toThrow('Step 1 is still being checked; try again in a moment.');
    judge(plan, 'p1s1');
    const effects = action(plan, 'p1s1', 'allow-session');
    expect(effects).toEqual([
      { kind: 'grant', shape: 'touch <path>', command: 'touch a' },
      { kind: 'audit', record: expect.objectContaining({ event: 'approved', decidedBy: { kind: 'person', rule: 'Allow for this session (touch <path>)' } }) },
    ]);
    expect(plan.step('p1s1')).toMatchObject({ status: 'approved', detail: undefined, decider: { verdict: 'allowed', by: 'you', rule: 'Allow for this session (touch <path>)' } });
    runNext(plan, ran(0));
    judge(plan, 'p1s2', { level: 'red' });
    expect(() => action(plan, 'p1s2', 'allow-session')).toThrow('Step 2 cannot be allowed for the session.');
  });

  it('a step the gate blocks (RED): Approve and Allow all refuse it; approving it unchanged through Edit puts it back', () => {
    const plan = planOf('rm -rf ~', 'ls');
    const effects = judge(plan, 'p1s1', { blocked: true, level: 'red', reasons: ['deletes your home'], rule: 'builtin: RED', decidedBy: 'builtin' });
    expect(audits(effects)).toMatchObject([{ event: 'blocked', level: 'red', decidedBy: { kind: 'builtin', rule: 'builtin: RED' } }]);
    expect(() => action(plan, 'p1s1', 'approve')).toThrow('Step 1 is blocked: blocked (RED: deletes your home). Edit it into something safer, deny it or skip it.');
    plan.apply({ kind: 'plan-action', action: 'allow-all' });
    expect(plan.step('p1s1')?.status).toBe('proposed');
    action(plan, 'p1s1', 'edit', { command: 'rm -rf ~' });
    expect(plan.step('p1s1')).toMatchObject({ status: 'proposed', detail: 'blocked (RED: deletes your home). Edit it into something safer, deny it or skip it.' });
    expect(plan.waitingFor()).toMatchObject({ for: 'user', step: { id: 'p1s1' } });
  });

  it('a blocked step with two reasons names both, apart', () => {
    const plan = planOf('sudo rm -rf ~');
    judge(plan, 'p1s1', { blocked: true, level: 'red', reasons: ['deletes your home', 'runs as root'], rule: 'builtin: RED', decidedBy: 'builtin' });
    expect(() => action(plan, 'p1s1', 'approve')).toThrow('Step 1 is blocked: blocked (RED: deletes your home; runs as root). Edit it into something safer, deny it or skip it.');
  });

  it('an unjudged step already classified RED cannot be approved either', () => {
    const plan = planOf('sudo rm -rf /');
    plan.apply({ kind: 'classified', stepId: 'p1s1', command: 'sudo rm -rf /', risk: { level: 'red', reasons: ['everything'] } });
    expect(() => action(plan, 'p1s1', 'approve')).toThrow(/blocked/);
  });

  it('decisions on a step that is no longer waiting, or on no step, are refused', () => {
    const plan = planOf('touch a');
    action(plan, 'p1s1', 'skip');
    expect(() => action(plan, 'p1s1', 'approve')).toThrow('Step 1 is already skipped.');
    expect(() => action(plan, 'p1s9', 'approve')).toThrow('There is no step p1s9 in this plan.');
  });
});

describe('the plan as a whole', () => {
  it('Allow all approves every step the gate asks about, in order, as each comes up', () => {
    const plan = planOf('touch a', 'touch b');
    judge(plan, 'p1s1');
    const effects = plan.apply({ kind: 'plan-action', action: 'allow-all' });
    expect(plan.mode).toBe('allow-all');
    expect(audits(effects)).toMatchObject([{ event: 'approved', step: 1, decidedBy: { kind: 'person', rule: 'Allow all' } }]);
    runNext(plan, ran(0));
    expect(plan.waitingFor()).toMatchObject({ for: 'gate', step: { id: 'p1s2' } });
    expect(audits(judge(plan, 'p1s2'))).toMatchObject([{ event: 'approved', step: 2, decidedBy: { rule: 'Allow all' } }]);
    runNext(plan, ran(0));
    expect(plan.state).toBe('finished');
  });

  it('only the next step waiting takes decisions: none while a step runs, none while Allow all has the next one checked', () => {
    const plan = planOf('read answer', 'touch b');
    judge(plan, 'p1s1');
    expect(plan.view().decisionStepId).toBe('p1s1');
    plan.apply({ kind: 'plan-action', action: 'allow-all' });
    plan.apply({ kind: 'started', stepId: 'p1s1' });
    // Step 1 runs (waiting for `read`): step 2 is proposed and unjudged, but not up for a decision.
    expect(plan.view().decisionStepId).toBeUndefined();
    expect(() => action(plan, 'p1s2', 'approve')).toThrow('Step 2 is not the step waiting for a decision.');
    expect(() => action(plan, 'p1s2', 'deny')).toThrow('Step 2 is not the step waiting for a decision.');
    expect(plan.step('p1s2')?.status).toBe('proposed');
    plan.apply({ kind: 'ended', stepId: 'p1s1', end: ran(0) });
    // Up next, but Allow all decides it once the gate has judged it.
    expect(plan.waitingFor()).toMatchObject({ for: 'gate', step: { id: 'p1s2' } });
    expect(plan.view().decisionStepId).toBeUndefined();
    // A RED step stops Allow all: then it is the user's.
    judge(plan, 'p1s2', { level: 'red', blocked: true });
    expect(plan.view().decisionStepId).toBe('p1s2');
  });

  it('in ask mode the next step takes decisions while it is checked; a later one never', () => {
    const plan = planOf('touch a', 'touch b');
    expect(plan.view().decisionStepId).toBe('p1s1');
    expect(() => action(plan, 'p1s2', 'skip')).toThrow('Step 2 is not the step waiting for a decision.');
  });

  it('each step records who decided it: you, Allow all, the policy, a hook, a grant', () => {
    const plan = planOf('touch a', 'touch b', 'ls', 'rm -rf /', 'touch e', 'touch f');
    judge(plan, 'p1s1');
    action(plan, 'p1s1', 'approve');
    expect(plan.step('p1s1')?.decider).toEqual({ verdict: 'allowed', by: 'you', rule: 'Allow once' });
    runNext(plan, ran(0));
    plan.apply({ kind: 'plan-action', action: 'allow-all' });
    judge(plan, 'p1s2');
    expect(plan.step('p1s2')?.decider).toEqual({ verdict: 'allowed', by: 'allow-all', rule: 'Allow all' });
    runNext(plan, ran(0));
    judge(plan, 'p1s3', { decision: 'allow', rule: 'policy ~/.config/tandem/policy.toml: allow ls', decidedBy: 'policy' });
    expect(plan.step('p1s3')?.decider).toEqual({ verdict: 'allowed', by: 'policy', rule: 'policy ~/.config/tandem/policy.toml: allow ls' });
    runNext(plan, ran(0));
    judge(plan, 'p1s4', { level: 'red', blocked: true, rule: 'builtin: RED commands are blocked', decidedBy: 'builtin' });
    // Blocked and waiting: no one has decided yet (the card says "blocked", not "asks you").
    expect(plan.step('p1s4')?.decider).toBeUndefined();
    action(plan, 'p1s4', 'skip');
    expect(plan.step('p1s4')?.decider).toEqual({ verdict: 'skipped', by: 'you', rule: 'Skip' });
    judge(plan, 'p1s5', { decision: 'deny', rule: 'hook no-touch', decidedBy: 'hook' });
    expect(plan.step('p1s5')?.decider).toEqual({ verdict: 'denied', by: 'hook', rule: 'hook no-touch' });
    plan.apply({ kind: 'plan-action', action: 'continue' });
    judge(plan, 'p1s6', { decision: 'allow', rule: 'session grant: touch <path>', decidedBy: 'grant' });
    expect(plan.step('p1s6')?.decider).toEqual({ verdict: 'allowed', by: 'grant', rule: 'session grant: touch <path>' });
  });

  it('step through asks again after Allow all', () => {
    const plan = planOf('touch a');
    plan.apply({ kind: 'plan-action', action: 'allow-all' });
    plan.apply({ kind: 'plan-action', action: 'step-through' });
    judge(plan, 'p1s1');
    expect(plan.waitingFor()).toMatchObject({ for: 'user' });
  });

  it('deny plan: every step not run is denied; the plan ends once nothing runs', () => {
    const plan = planOf('touch a', 'touch b', 'touch c');
    judge(plan, 'p1s1');
    action(plan, 'p1s1', 'approve');
    plan.apply({ kind: 'started', stepId: 'p1s1' });
    plan.apply({ kind: 'plan-action', action: 'deny-plan' });
    expect(statuses(plan)).toEqual(['running', 'denied', 'denied']);
    expect(plan.step('p1s2')?.result).toEqual({ content: 'Not run: the user denied the whole plan.', isError: true });
    expect(plan.state).toBe('active');
    plan.apply({ kind: 'ended', stepId: 'p1s1', end: ran(0) });
    expect(plan.state).toBe('finished');
    expect(() => plan.apply({ kind: 'plan-action', action: 'allow-all' })).toThrow('This plan is finished.');
  });

  it('a non-zero exit halts the plan; Continue goes on with the next step', () => {
    const plan = planOf('make', 'make install');
    judge(plan, 'p1s1', { decision: 'allow' });
    const effects = runNext(plan, ran(2));
    expect(plan.step('p1s1')).toMatchObject({ status: 'failed', exitCode: 2, durationMs: 400, result: { content: 'ran, exit 2', isError: true } });
    expect(effects).toEqual([
      { kind: 'audit', record: expect.objectContaining({ event: 'executed', exitCode: 2, durationMs: 400 }) },
      { kind: 'executed', stepId: 'p1s1', cwd: '/tmp' },
    ]);
    expect(plan).toMatchObject({ state: 'halted', haltReason: 'Step 1 exited with code 2.' });
    expect(plan.waitingFor()).toEqual({ for: 'user' });
    plan.apply({ kind: 'plan-action', action: 'continue' });
    expect(plan).toMatchObject({ state: 'active', haltReason: undefined });
    expect(plan.waitingFor()).toMatchObject({ for: 'gate', step: { id: 'p1s2' } });
    expect(() => plan.apply({ kind: 'plan-action', action: 'continue' })).toThrow('The plan is not stopped.');
  });

  it('Stop after a halt: the rest is skipped, and the model told why', () => {
    const plan = planOf('false', 'echo never');
    judge(plan, 'p1s1', { decision: 'allow' });
    runNext(plan, ran(1));
    plan.apply({ kind: 'plan-action', action: 'stop' });
    expect(statuses(plan)).toEqual(['failed', 'skipped']);
    expect(plan.step('p1s2')?.result).toEqual({ content: 'Not run: the user stopped the plan. Step 1 exited with code 1.', isError: false });
    expect(plan.waitingFor()).toEqual({ for: 'nothing' });
  });

  it('the last step failing ends the plan rather than halting it', () => {
    const plan = planOf('false');
    judge(plan, 'p1s1', { decision: 'allow' });
    runNext(plan, ran(1));
    expect(plan.state).toBe('finished');
  });

  it('a step past its timeout or interrupted fails with that detail; an exit code the shell did not report is fine otherwise', () => {
    const timedOut = planOf('sleep 60', 'ls');
    judge(timedOut, 'p1s1', { decision: 'allow' });
    runNext(timedOut, ran(130, { timedOut: true }));
    expect(timedOut.step('p1s1')).toMatchObject({ status: 'failed', detail: 'timed out' });
    expect(timedOut.haltReason).toBe('Step 1 exited with code 130 (timed out).');

    const interrupted = planOf('sleep 60', 'ls');
    judge(interrupted, 'p1s1', { decision: 'allow' });
    runNext(interrupted, ran(undefined, { interrupted: true }));
    expect(interrupted.step('p1s1')).toMatchObject({ status: 'failed', detail: 'interrupted' });
    expect(interrupted.haltReason).toBe('Step 1 exited with code unknown (interrupted).');

    const unknown = planOf('exec true', 'ls');
    judge(unknown, 'p1s1', { decision: 'allow' });
    runNext(unknown, ran(undefined));
    expect(unknown.step('p1s1')?.status).toBe('done');
    expect(unknown.state).toBe('active');
  });

  it("a step that changed Tandem's own files fails and halts the plan, even with exit 0", () => {
    const plan = planOf('./setup.sh', 'ls');
    judge(plan, 'p1s1', { decision: 'allow' });
    const effects = runNext(plan, ran(0, { ownFilesChanged: ['~/.config/tandem/policy.toml'] }));
    expect(plan.step('p1s1')).toMatchObject({ status: 'failed', detail: "changed Tandem's own files: ~/.config/tandem/policy.toml", result: { isError: true } });
    expect(audits(effects).map((record) => record.event)).toEqual(['executed', 'failed']);
    expect(plan.haltReason).toContain("changed Tandem's own files");
  });

  it('a step that did not run, or whose pane is gone, fails and halts; one cancelled before it was typed is skipped', () => {
    for (const [end, detail] of [
      [{ kind: 'not-run', message: 'The shell showed a new prompt without running the command (a syntax error?).' }, 'The shell showed a new prompt without running the command (a syntax error?).'],
      [{ kind: 'pane-gone', message: 'The shell in pane 1 exited.' }, 'The shell in pane 1 exited.'],
      [{ kind: 'no-pane' }, 'the pane is gone'],
    ] as [StepEnd, string][]) {
      const plan = planOf('ls', 'pwd');
      judge(plan, 'p1s1', { decision: 'allow' });
      if (end.kind === 'no-pane') plan.apply({ kind: 'ended', stepId: 'p1s1', end });
      else runNext(plan, end);
      expect(plan.step('p1s1')).toMatchObject({ status: 'failed', detail, result: { isError: true } });
      expect(plan.state).toBe('halted');
    }
    const cancelled = planOf('ls', 'pwd');
    judge(cancelled, 'p1s1', { decision: 'allow' });
    runNext(cancelled, { kind: 'cancelled' });
    expect(cancelled.step('p1s1')).toMatchObject({ status: 'skipped', detail: 'cancelled', result: { content: 'Not run: cancelled before it was typed.', isError: false } });
  });

  it('a note: once no step runs, the rest of the plan goes back to the model with it', () => {
    const plan = planOf('echo one', 'echo two', 'echo three');
    judge(plan, 'p1s1', { decision: 'allow' });
    plan.apply({ kind: 'started', stepId: 'p1s1' });
    plan.apply({ kind: 'note', text: 'use printf' });
    expect(plan.waitingFor()).toMatchObject({ for: 'step' });
    plan.apply({ kind: 'note', text: 'and quote it' });
    plan.apply({ kind: 'ended', stepId: 'p1s1', end: ran(0) });
    expect(statuses(plan)).toEqual(['done', 'skipped', 'skipped']);
    expect(plan.step('p1s2')).toMatchObject({ detail: 'replaced by the revised plan', result: { isError: false } });
    expect(plan.state).toBe('finished');
    expect(plan.note).toBe('use printf\n\nand quote it');
  });

  it('a note after a halt revises the plan at once', () => {
    const plan = planOf('false', 'echo two');
    judge(plan, 'p1s1', { decision: 'allow' });
    runNext(plan, ran(1));
    plan.apply({ kind: 'note', text: 'try true' });
    expect(plan.state).toBe('finished');
    expect(plan.step('p1s2')?.status).toBe('skipped');
  });

  it('cancel: steps not run are skipped and the plan is cancelled; a running step keeps running until it ends', () => {
    const plan = planOf('sleep 30', 'echo after');
    judge(plan, 'p1s1', { decision: 'allow' });
    plan.apply({ kind: 'started', stepId: 'p1s1' });
    plan.apply({ kind: 'cancel' });
    expect(plan.state).toBe('cancelled');
    expect(statuses(plan)).toEqual(['running', 'skipped']);
    expect(plan.step('p1s2')?.result).toEqual({ content: 'Not run: the user cancelled the plan.', isError: false });
    expect(plan.waitingFor()).toMatchObject({ for: 'step' });
    plan.apply({ kind: 'ended', stepId: 'p1s1', end: ran(130, { interrupted: true }) });
    expect(plan.step('p1s1')?.status).toBe('failed');
    expect(plan.waitingFor()).toEqual({ for: 'nothing' });
    expect(plan.apply({ kind: 'cancel' })).toEqual([]);
  });

  it('a running step shows its progress and block', () => {
    const plan = planOf('make');
    judge(plan, 'p1s1', { decision: 'allow' });
    plan.apply({ kind: 'started', stepId: 'p1s1' });
    plan.apply({ kind: 'progress', stepId: 'p1s1', detail: 'waiting for the prompt in pane 1' });
    plan.apply({ kind: 'block-started', stepId: 'p1s1', blockId: 'p1b7' });
    expect(plan.view().steps[0]).toMatchObject({ status: 'running', detail: 'waiting for the prompt in pane 1', blockId: 'p1b7' });
  });

  it('wakes whoever waits at every change, and only then', async () => {
    const plan = planOf('touch a');
    let woken = 0;
    void plan.changed().then(() => woken++);
    await Promise.resolve();
    expect(woken).toBe(0);
    plan.apply({ kind: 'plan-action', action: 'allow-all' });
    await Promise.resolve();
    expect(woken).toBe(1);
  });
});

describe('edit steps', () => {
  const editPlan = () => {
    const plan = new Plan('p1');
    const effects = plan.apply({
      kind: 'proposed',
      toolUseId: 't1',
      tool: 'edit_file',
      command: 'edit_file a.txt',
      purpose: 'fix',
      paneId: 1,
      cwd: CWD,
      edit: { path: 'a.txt', request: { tool: 'edit_file', edits: [{ old_text: 'a', new_text: 'b' }] } },
    });
    return { plan, effects };
  };
  const diff = { tool: 'edit_file' as const, path: `${CWD}/a.txt`, creates: false, diff: { added: 1, removed: 1, hunks: [] } };
  const audit = { path: `${CWD}/a.txt`, sha256Before: 'a'.repeat(64), sha256After: 'b'.repeat(64) };

  it('are marked as edits, keep their request out of the view, and are not edited as commands', () => {
    const { plan, effects } = editPlan();
    expect(effects).toEqual([{ kind: 'classify', stepId: 'p1s1' }]);
    expect(plan.view().steps[0]).toMatchObject({ kind: 'edit' });
    expect(plan.view().steps[0]).not.toHaveProperty('editRequest');
    plan.apply({ kind: 'edit-prepared', stepId: 'p1s1', edit: diff });
    judge(plan, 'p1s1');
    expect(plan.view().steps[0]?.edit).toEqual(diff);
    expect(() => action(plan, 'p1s1', 'edit', { command: 'rm -rf /' })).toThrow(/changes a file/);
  });

  it('an applied edit is done and audited with its sha256s; undo is recorded on the step', () => {
    const { plan } = editPlan();
    plan.apply({ kind: 'edit-prepared', stepId: 'p1s1', edit: diff });
    judge(plan, 'p1s1');
    action(plan, 'p1s1', 'approve');
    const effects = runNext(plan, { kind: 'edited', ok: true, report: 'Edited.', audit });
    expect(statuses(plan)).toEqual(['done']);
    expect(audits(effects)).toEqual([expect.objectContaining({ event: 'executed', command: 'edit_file a.txt', ...audit })]);
    expect(plan.state).toBe('finished');
    const undo = plan.apply({ kind: 'undone', stepId: 'p1s1', restored: true, message: 'Undone.', audit: { path: audit.path, sha256Before: audit.sha256After, sha256After: audit.sha256Before } });
    expect(plan.view().steps[0]?.edit?.undo).toEqual({ restored: true, message: 'Undone.' });
    expect(audits(undo)).toEqual([expect.objectContaining({ event: 'executed', command: 'undo edit_file a.txt' })]);
    expect(() => plan.apply({ kind: 'undone', stepId: 'p1s1', restored: true, message: 'again', audit: {} })).toThrow(/undone already/);
  });

  it('an edit outside the cwd waits for a decision on it, even under Allow all, and offers no session grant', () => {
    const { plan } = editPlan();
    plan.apply({ kind: 'plan-action', action: 'allow-all' });
    plan.apply({ kind: 'edit-prepared', stepId: 'p1s1', edit: diff });
    judge(plan, 'p1s1', { personal: true, decidedBy: 'builtin' });
    expect(statuses(plan)).toEqual(['proposed']);
    expect(plan.decisionStep()?.id).toBe('p1s1');
    expect(plan.view().steps[0]?.approval).toMatchObject({ grantable: false, personal: true });
    action(plan, 'p1s1', 'approve');
    expect(statuses(plan)).toEqual(['approved']);
  });

  it('an edit that cannot be made fails the step, and the model is told why', () => {
    const { plan } = editPlan();
    plan.apply({ kind: 'ended', stepId: 'p1s1', end: { kind: 'edited', ok: false, report: 'Not changed: old_text was not found in a.txt.', audit: { path: audit.path } } });
    expect(statuses(plan)).toEqual(['failed']);
    expect(plan.steps[0]?.result).toEqual({ content: 'Not changed: old_text was not found in a.txt.', isError: true });
  });
});

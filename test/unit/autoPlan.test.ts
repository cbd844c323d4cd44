import { describe, expect, it } from 'vitest';
import type { Block } from '../../src/shared/blocks';
import { Plan } from '../../src/main/agent/plan/plan';
import { beyondLimitAudit } from '../../src/main/agent/plan/stepLimit';
import type { PlanEffect, StepEnd } from '../../src/main/agent/plan/planEvents';
import type { GateDecision } from '../../src/main/safety/approval/approvalGate';

// A plan of an `!auto` run: GREEN steps only the default asks about run, everything else
// asks as before, RED is refused (never blocked waiting), and a failure ends the plan.

const CWD = '/home/user/project';

function verdict(command: string, over: Partial<GateDecision> = {}): GateDecision {
  return { decision: 'ask', blocked: false, level: 'yellow', reasons: ['it runs code'], rule: 'default: ask (no policy.toml allows it)', decidedBy: 'default', command, shape: command, ...over };
}

function autoPlanOf(...commands: string[]): Plan {
  const plan = new Plan('a1', { auto: true });
  commands.forEach((command, index) => plan.apply({ kind: 'proposed', toolUseId: `t${index + 1}`, tool: 'run_command', command, purpose: '', paneId: 1, cwd: CWD }));
  return plan;
}

function judge(plan: Plan, stepId: string, over: Partial<GateDecision> = {}): PlanEffect[] {
  const command = plan.step(stepId)!.command;
  plan.apply({ kind: 'judging', stepId, cwd: CWD });
  return plan.apply({ kind: 'judged', stepId, command, decision: verdict(command, over) });
}

function finished(exitCode: number): StepEnd {
  const block: Block = { id: 'p1b1', paneId: 1, command: 'x', cwd: CWD, startedAt: 1_000, endedAt: 1_200, exitCode, trusted: true, outputOffset: 0, usedAlternateScreen: false };
  return { kind: 'finished', run: { kind: 'finished', block, output: { text: '', truncated: false, lineCount: 0 }, timedOut: false, interrupted: false }, report: `exit ${exitCode}`, ownFilesChanged: [] };
}

const green = { level: 'green' as const, reasons: [] };

describe('an auto plan', () => {
  it('runs a GREEN step that only the default asks about, and says auto mode allowed it', () => {
    const plan = autoPlanOf('ls');
    const effects = judge(plan, 'a1s1', { ...green });
    expect(plan.step('a1s1')).toMatchObject({ status: 'approved', decider: { verdict: 'allowed', by: 'auto' } });
    expect(plan.waitingFor()).toMatchObject({ for: 'runner' });
    expect(effects.flatMap((effect) => (effect.kind === 'audit' ? [effect.record] : []))).toContainEqual(
      expect.objectContaining({ event: 'approved', decidedBy: { kind: 'auto', rule: 'GREEN: runs without asking' } }),
    );
    expect(plan.view().auto).toBe(true);
  });

  it('asks for a YELLOW step, and for a GREEN step that a policy rule or a hook asks about', () => {
    for (const over of [{}, { ...green, decidedBy: 'policy' as const, rule: 'policy: [approval.shell] mode = "ask"' }, { ...green, decidedBy: 'hook' as const, rule: 'hook check' }]) {
      const plan = autoPlanOf('npm test');
      judge(plan, 'a1s1', over);
      expect(plan.step('a1s1')?.status).toBe('proposed');
      expect(plan.waitingFor()).toMatchObject({ for: 'user' });
    }
  });

  it('does not run a GREEN step that needs a decision on itself (personal)', () => {
    const plan = autoPlanOf('edit_file ../outside');
    judge(plan, 'a1s1', { ...green, personal: true });
    expect(plan.step('a1s1')?.status).toBe('proposed');
  });

  it('refuses a RED step with its reasons, tells the model, skips the rest and finishes: nothing waits', () => {
    const plan = autoPlanOf('rm -rf ~', 'ls');
    judge(plan, 'a1s1', { level: 'red', blocked: true, reasons: ['rm -r -f on your home folder deletes it'] });
    const refused = plan.step('a1s1')!;
    expect(refused.status).toBe('denied');
    expect(refused.detail).toContain('rm -r -f on your home folder deletes it');
    expect(refused.result).toMatchObject({ isError: true });
    expect(refused.result!.content).toContain('auto mode, which refuses RED steps: rm -r -f on your home folder deletes it. Find another way');
    expect(plan.step('a1s2')).toMatchObject({ status: 'skipped', decider: { by: 'auto' } });
    expect(plan.state).toBe('finished');
    expect(plan.waitingFor()).toEqual({ for: 'nothing' });
  });

  it('refuses a RED step with two reasons as two sentences', () => {
    const plan = autoPlanOf('sudo rm -rf ~');
    judge(plan, 'a1s1', { level: 'red', blocked: true, reasons: ['rm -r -f on your home folder deletes it', 'sudo runs rm as root'] });
    expect(plan.step('a1s1')!.result!.content).toContain('RED steps: rm -r -f on your home folder deletes it. sudo runs rm as root. Find another way');
  });

  it('a RED step stays refused whatever is clicked', () => {
    const plan = autoPlanOf('rm -rf ~');
    judge(plan, 'a1s1', { level: 'red', blocked: true });
    expect(() => plan.apply({ kind: 'step-action', stepId: 'a1s1', action: 'approve' })).toThrow();
    expect(plan.step('a1s1')?.status).toBe('denied');
  });

  it('a failed step ends the plan at once (no halt waiting for the user); the model hears why the rest did not run', () => {
    const plan = autoPlanOf('cat a', 'cat b');
    judge(plan, 'a1s1', { ...green });
    plan.apply({ kind: 'started', stepId: 'a1s1' });
    plan.apply({ kind: 'ended', stepId: 'a1s1', end: finished(1) });
    expect(plan.state).toBe('finished');
    expect(plan.step('a1s2')).toMatchObject({ status: 'skipped' });
    expect(plan.step('a1s2')!.result!.content).toContain('Step 1 exited with code 1');
  });

  it('refuses the steps beyond what the run has left, on their cards, with the limit as the reason', () => {
    const plan = new Plan('a2', { auto: true, stepLimit: { left: 2, total: 5 } });
    const effects = [1, 2, 3].flatMap((i) => plan.apply({ kind: 'proposed', toolUseId: `t${i}`, tool: 'run_command', command: `echo ${i}`, purpose: '', cwd: CWD }));
    expect(plan.steps).toHaveLength(3);
    expect(plan.step('a2s1')).toMatchObject({ status: 'proposed' });
    expect(plan.step('a2s1')?.beyondLimit).toBeUndefined();
    const refused = plan.step('a2s3')!;
    expect(refused).toMatchObject({ status: 'denied', beyondLimit: true, detail: "refused: this auto run's limit of 5 steps was reached", decider: { verdict: 'denied', by: 'auto' } });
    expect(refused.result).toEqual({ isError: true, content: "Not run: this auto run's limit of 5 steps was reached, so the run ends here. Say what is left to do." });
    // Only the steps within the limit are classified; the audit trail hears of the refusal after the proposal (PlanRunner.present).
    expect(effects.filter((effect) => effect.kind === 'classify').map((effect) => effect.kind === 'classify' && effect.stepId)).toEqual(['a2s1', 'a2s2']);
    expect(beyondLimitAudit(refused)).toMatchObject({ event: 'denied', step: 3, decidedBy: { kind: 'auto', rule: 'its limit of 5 steps' } });
    expect(beyondLimitAudit(plan.step('a2s1')!)).toBeUndefined();
    expect(plan.view().steps[2]).toMatchObject({ beyondLimit: true, status: 'denied' });
  });

  it('an ordinary plan still halts on a failure and keeps a RED step blocked for an edit', () => {
    const plan = new Plan('p');
    plan.apply({ kind: 'proposed', toolUseId: 't1', tool: 'run_command', command: 'rm -rf ~', purpose: '', cwd: CWD });
    plan.apply({ kind: 'judging', stepId: 'ps1', cwd: CWD });
    plan.apply({ kind: 'judged', stepId: 'ps1', command: 'rm -rf ~', decision: verdict('rm -rf ~', { level: 'red', blocked: true }) });
    expect(plan.step('ps1')?.status).toBe('proposed');
    expect(plan.view().auto).toBeUndefined();
  });
});

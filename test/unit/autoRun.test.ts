import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConversationItem, PlanView } from '../../src/shared/agent';
import { AutoRun, type AutoLimits } from '../../src/main/agent/auto/autoRun';
import { autoEndNote, planStopFor } from '../../src/main/agent/auto/autoEndWords';
import { describeAutoEnd, type AutoEnd } from '../../src/shared/companion';

// One auto run's limits and account, on its own: the time limit, the token budget, the step
// count read from the plan cards after the task's message.

const LIMITS: AutoLimits = { maxSteps: 3, stepTimeoutMs: 300_000, totalMs: 30 * 60_000, tokenBudget: 10_000 };

function plan(id: string, commands: string[], auto = true): ConversationItem {
  const view: PlanView = {
    id,
    mode: 'ask',
    state: 'finished',
    steps: commands.map((command, index) => ({ id: `${id}s${index + 1}`, index: index + 1, command, purpose: '', status: 'done', exitCode: 0 })),
    ...(auto ? { auto: true } : {}),
  };
  return { id: `plan-${id}`, role: 'plan', plan: view, at: 0 };
}

const task: ConversationItem = { id: 'task', role: 'user', text: 'fix it', source: 'auto', attachments: [], at: 0 };

describe('AutoRun', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function start(limits: Partial<AutoLimits> = {}) {
    const host = { stopEverything: vi.fn(), changed: vi.fn() };
    return { run: new AutoRun('fix it', 1, 'task', { ...LIMITS, ...limits }, host), host };
  }

  it('stops everything when its time is up, and says which limit', () => {
    const { run, host } = start();
    vi.advanceTimersByTime(30 * 60_000 - 1);
    expect(host.stopEverything).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(host.stopEverything).toHaveBeenCalledTimes(1);
    expect(run.end).toEqual({ kind: 'limit', limit: 'time', detail: 'the time limit of 30 min was reached' });
  });

  it('stops once its requests used the token budget; the first reason to stop wins', () => {
    const { run, host } = start();
    run.countTokens(6_000);
    expect(run.end).toBeUndefined();
    run.countTokens(4_000);
    expect(run.end).toMatchObject({ kind: 'limit', limit: 'tokens' });
    run.stop({ kind: 'stopped', by: 'ctrl-c' });
    expect(run.end).toMatchObject({ kind: 'limit', limit: 'tokens' });
    expect(host.stopEverything).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(60 * 60_000);
    expect(host.stopEverything).toHaveBeenCalledTimes(1);
  });

  it("its progress names the step it is on, not the last one proposed", () => {
    const { run } = start({ maxSteps: 10 });
    const proposed = (item: ConversationItem, statuses: PlanView['steps'][number]['status'][]): ConversationItem => {
      if (item.role !== 'plan') throw new Error('a plan');
      return { ...item, plan: { ...item.plan, steps: item.plan.steps.map((step, index) => ({ ...step, status: statuses[index]!, exitCode: undefined })) } };
    };
    expect(run.view([task]).current).toBe(0);
    const first = plan('p1', ['ls']);
    expect(run.view([task, first, proposed(plan('p2', ['sleep 30', 'make']), ['running', 'proposed'])])).toMatchObject({ steps: 3, current: 2 });
    expect(run.view([task, first, proposed(plan('p2', ['sleep 30', 'make']), ['done', 'proposed'])]).current).toBe(3);
    expect(run.view([task, first, plan('p2', ['sleep 30', 'make'])]).current).toBe(3);
  });

  it('counts the steps of auto plans after its task only, and gives the next plan what is left', () => {
    const { run } = start();
    const items = [plan('old', ['ls', 'pwd']), task, plan('p1', ['ls']), plan('manual', ['date'], false)];
    expect(run.view(items).steps).toBe(1);
    expect(run.planRules(items)).toEqual({ auto: true, stepLimit: { left: 2, total: 3 } });
    run.checkSteps(items);
    expect(run.end).toBeUndefined();
    run.checkSteps([...items, plan('p2', ['cat a', 'cat b'])]);
    expect(run.end).toMatchObject({ kind: 'limit', limit: 'steps' });
  });

  it('steps refused beyond the limit do not count against it, and the summary lists them as not run', () => {
    const { run } = start();
    const limited = plan('p1', ['ls', 'pwd', 'date']);
    if (limited.role !== 'plan') throw new Error('not a plan');
    const refused = { ...limited.plan.steps[2]!, status: 'denied' as const, beyondLimit: true, detail: "refused: this auto run's limit of 3 steps was reached" };
    const items = [task, { ...limited, plan: { ...limited.plan, steps: [limited.plan.steps[0]!, limited.plan.steps[1]!, refused] } }];
    expect(run.view(items).steps).toBe(2);
    expect(run.finish(items, { kind: 'done' }).steps[2]).toMatchObject({ command: 'date', status: 'denied', detail: "refused: this auto run's limit of 3 steps was reached" });
  });

  it('its summary lists every step in order; the model hears of an early end, not of a finished one', () => {
    const { run } = start();
    const summary = run.finish([task, plan('p1', ['ls', 'make'])], { kind: 'done' });
    expect(summary).toMatchObject({ task: 'fix it', end: { kind: 'done' }, steps: [{ command: 'ls', status: 'done', exitCode: 0 }, { command: 'make' }] });
    expect(autoEndNote('fix it', summary.end)).toBeUndefined();
    expect(autoEndNote('fix it', { kind: 'stopped', by: 'ctrl-c' })).toContain('The user stopped the auto run of the task "fix it"');
  });

  it('names what ended the run in its own words: on the cards, to the model, in the summary', () => {
    const ends: [AutoEnd, string, string][] = [
      [{ kind: 'limit', limit: 'tokens', detail: 'its token budget of 1,000 was used up' }, 'Not run: the auto run ended because its token budget of 1,000 was used up.', 'its token budget of 1,000 was used up'],
      [{ kind: 'limit', limit: 'steps', detail: 'the limit of 2 steps was reached' }, 'Not run: the auto run ended because the limit of 2 steps was reached.', 'the limit of 2 steps was reached'],
      [{ kind: 'limit', limit: 'time', detail: 'the time limit of 30 min was reached' }, 'Not run: the auto run ended because the time limit of 30 min was reached.', 'the time limit of 30 min was reached'],
      [{ kind: 'stopped', by: 'stop-button' }, 'Not run: the user stopped the auto run with Stop on its banner.', 'stopped by you (Stop on its banner)'],
      [{ kind: 'stopped', by: 'ctrl-c' }, 'Not run: the user stopped the auto run with Ctrl+C in the pane.', 'stopped by you (Ctrl+C in the pane)'],
      [{ kind: 'stopped', by: 'panel' }, 'Not run: the user stopped the auto run with Esc in the AI panel.', 'stopped by you (Esc in the AI panel)'],
    ];
    for (const [end, toModel, forUser] of ends) {
      const stop = planStopFor(end);
      expect(`Not run: ${stop.reason}.`).toBe(toModel);
      expect(describeAutoEnd(end)).toBe(forUser);
      expect(stop.decider.by).toBe(end.kind === 'stopped' ? 'you' : 'auto');
      // The model never reads "you" for the user.
      expect(autoEndNote('fix it', end)).not.toMatch(/\byou\b/);
    }
    expect(planStopFor({ kind: 'stopped', by: 'ctrl-c' }).ctrlCSent).toBe(true);
    expect(planStopFor({ kind: 'stopped', by: 'stop-button' }).ctrlCSent).toBeUndefined();
  });
});

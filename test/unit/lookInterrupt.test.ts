import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Conversation } from '../../src/main/agent/conversation/conversation';
import { listWindowsTool } from '../../src/main/agent/tools/listWindowsTool';
import { readScreenTextTool } from '../../src/main/agent/tools/readScreenTextTool';
import { screenshotTool } from '../../src/main/agent/tools/screenshotTool';
import { ToolDispatcher } from '../../src/main/agent/tools/toolDispatcher';
import type { Desktop, DesktopAvailability } from '../../src/main/desktop/desktop';
import { DesktopError } from '../../src/main/desktop/desktopError';
import { createApprovalGate } from '../../src/main/safety/approval/gateSetup';
import type { AuditRecord } from '../../src/main/safety/audit/auditEntry';
import { tandemPaths } from '../../src/main/settings/paths';
import { FakePane } from '../support/fakePane';
import { untilTrue } from '../support/untilTrue';

// A look step that is still reading the screen when the user interrupts it (Esc) or cancels
// the plan: the desktop's request is aborted, the step ends "interrupted" or "cancelled", the
// plan stops, and the model is told. The desktop is a stand-in that reads until aborted (the
// real one, killing tesseract, is tested under Xvfb in test/integration/desktop/lookInterrupt).

/** Reads, captures and lists until the request is aborted, as a long OCR would. */
class EndlessDesktop implements Partial<Desktop> {
  readonly signals: AbortSignal[] = [];
  async availability(): Promise<DesktopAvailability> {
    return { available: true, implementation: 'stand-in', screenInput: true };
  }
  readText = (_target: unknown, signal?: AbortSignal) => this.until(signal);
  screenshot = (_target: unknown, signal?: AbortSignal) => this.until(signal);
  listWindows = (signal?: AbortSignal) => this.until(signal);

  private until(signal: AbortSignal | undefined): Promise<never> {
    if (!signal) return Promise.reject(new Error('a look must be interruptible'));
    this.signals.push(signal);
    return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new DesktopError('interrupted', 'tesseract was stopped')), { once: true }));
  }
}

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'tandem-look-interrupt-'));
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

function setup() {
  const home = join(root, 'home');
  mkdirSync(home, { recursive: true });
  const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local', 'share'), XDG_STATE_HOME: join(home, '.local', 'state') };
  const gate = createApprovalGate(tandemPaths(env), env, { systemPolicyFile: join(root, 'none', 'policy.toml') });
  const pane = new FakePane();
  const desktop = new EndlessDesktop();
  const conversation = new Conversation({
    surroundings: () => ({ status: 'idle', backend: 'anthropic', model: 'm', budget: { used: 0, limit: 0 }, grants: [], policyProblems: [] }),
    emit: () => undefined,
  });
  const dispatcher = new ToolDispatcher([screenshotTool, readScreenTextTool, listWindowsTool], {
    pane: (paneId) => (paneId === pane.id ? pane : undefined),
    paneId: () => pane.id,
    cwd: () => pane.cwd,
    homeDir: '/home/user',
    conversation,
    gate,
    audit: { append: async (_record: AuditRecord) => undefined },
    stepTimeoutMs: () => 60_000,
    desktop: desktop as unknown as Desktop,
  });
  /** Proposes the looks, approves the first, and resolves once it runs; `results` resolves when the plan is settled. */
  const startLooks = async (calls: { name: string; input: unknown }[]) => {
    const withIds = calls.map((call, index) => ({ id: `t${index + 1}`, ...call }));
    for (const call of withIds) dispatcher.toolUse(call);
    dispatcher.responseComplete();
    const runner = dispatcher.plan!;
    const results = dispatcher.execute(withIds);
    await untilTrue(() => runner.waitingForUser, 'the first look asking');
    const wait = runner.plan.waitingFor();
    runner.stepAction(wait.for === 'user' ? wait.step!.id : '', 'approve');
    await untilTrue(() => desktop.signals.length === 1, 'the look running');
    return { runner, results };
  };
  return { desktop, startLooks };
}

describe('interrupting a look step', () => {
  it('Esc: the desktop request is aborted, the step ends "interrupted", the plan stops before the next look, the model is told', async () => {
    const { desktop, startLooks } = setup();
    const { runner, results } = await startLooks([
      { name: 'read_screen_text', input: { target: 'screen' } },
      { name: 'screenshot', input: { target: 'window', window_id: '0x2' } },
    ]);
    expect(runner.runningStep).toBe(true);
    runner.interruptRunningStep();
    expect(desktop.signals[0]!.aborted).toBe(true);
    await untilTrue(() => !runner.runningStep, 'the look ended');
    const [first] = runner.plan.view().steps;
    expect(first).toMatchObject({ status: 'failed', detail: 'interrupted' });
    // Stopped like a failed command step: the plan waits for the user, who stops it.
    expect(runner.plan.state).toBe('halted');
    expect(runner.plan.haltReason).toBe('Step 1 was interrupted.');
    runner.planAction('stop');
    const { results: told } = await results;
    expect(told[0]).toMatchObject({ is_error: true, content: expect.stringContaining('the user stopped it before it finished') });
    expect(desktop.signals).toHaveLength(1);
  });

  it('cancelling the plan with its running step: the look ends "cancelled", the rest is not run', async () => {
    const { desktop, startLooks } = setup();
    const { runner, results } = await startLooks([{ name: 'list_windows', input: {} }, { name: 'read_screen_text', input: { target: 'screen' } }]);
    runner.cancel(true);
    const { results: told } = await results;
    expect(desktop.signals[0]!.aborted).toBe(true);
    expect(runner.plan.view().steps.map((step) => [step.status, step.detail])).toEqual([
      ['failed', 'cancelled'],
      ['skipped', 'plan cancelled'],
    ]);
    expect(told[0]).toMatchObject({ is_error: true, content: expect.stringContaining('the user stopped it before it finished') });
    expect(desktop.signals).toHaveLength(1);
  });
});

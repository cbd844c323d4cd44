import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Conversation } from '../../src/main/agent/conversation/conversation';
import { computerTool } from '../../src/main/agent/tools/computerTool';
import { listWindowsTool } from '../../src/main/agent/tools/listWindowsTool';
import { readScreenTextTool } from '../../src/main/agent/tools/readScreenTextTool';
import { screenshotTool } from '../../src/main/agent/tools/screenshotTool';
import { ToolDispatcher } from '../../src/main/agent/tools/toolDispatcher';
import { uiActionTool } from '../../src/main/agent/tools/uiActionTool';
import type { CaptureTarget, Desktop, DesktopAvailability, DesktopNotification, ScreenInfo, Screenshot, ScreenText, UiAction, WindowInfo } from '../../src/main/desktop/desktop';
import { encodePng } from '../../src/main/desktop/raster/pngEncoding';
import { ScreenshotSpace } from '../../src/main/desktop/screenshotSpace';
import type { ApprovalGate } from '../../src/main/safety/approval/approvalGate';
import type { AuditRecord } from '../../src/main/safety/audit/auditEntry';
import type { TandemPaths } from '../../src/main/settings/paths';
import { makeGateHome } from '../support/gateHome';
import { FakePane } from '../support/fakePane';

// ui_action and the computer tool over the real dispatcher, plan, state machine and approval
// gate: the step the user sees, what they decide, what the desktop is asked to do and what the
// model is told. Only the desktop is a stand-in (under Xvfb: test/integration/desktop/uiAgent).

const SCREEN = { x: 0, y: 0, width: 1920, height: 1080 };
const frameOf = (x: number, y: number, width: number, height: number) => ({ x, y, width, height });

function windowOf(id: string, title: string, application: string, frame: ReturnType<typeof frameOf>, more: Partial<WindowInfo> = {}): WindowInfo {
  return { id, title, application, instance: application.toLowerCase(), geometry: frame, frame, focused: false, visible: true, screen: 0, excluded: false, ...more };
}

/** One 1920×1080 screen with a "Build failed" dialog (Cancel at 960,630 on screen) over an xterm. */
class StandInDesktop implements Desktop {
  windows: WindowInfo[] = [
    windowOf('0x1400002', 'bash', 'XTerm', frameOf(0, 0, 1000, 700)),
    windowOf('0x2a00007', 'Build failed', 'Xmessage', frameOf(700, 450, 500, 250), { focused: true }),
  ];
  readonly acts: UiAction[] = [];
  readonly notifications: DesktopNotification[] = [];

  async availability(): Promise<DesktopAvailability> {
    return { available: true, implementation: 'stand-in', screenInput: true };
  }
  async screenshot(): Promise<Screenshot> {
    const space = ScreenshotSpace.forCapture(SCREEN);
    const png = encodePng({ width: space.imageWidth, height: space.imageHeight, data: Buffer.alloc(space.imageWidth * space.imageHeight * 4, 0x80) });
    return { png, space, description: 'screen 0 (1920×1080)', blackedOut: 0 };
  }
  async readText(_target: CaptureTarget): Promise<ScreenText> {
    const space = ScreenshotSpace.forCapture(SCREEN);
    // "Cancel" at 620..660 × 410..430 in the image: 930..990 × 615..645 on screen.
    const words = [{ text: 'Cancel', box: { x: 620, y: 410, width: 40, height: 20 }, confidence: 90, line: 0 }];
    return { words, text: 'Cancel', space, description: 'screen 0 (1920×1080)' };
  }
  async listWindows(): Promise<WindowInfo[]> {
    return this.windows;
  }
  async screens(): Promise<ScreenInfo[]> {
    return [{ index: 0, name: 'screen 0', rect: SCREEN, primary: true }];
  }
  async act(action: UiAction): Promise<void> {
    this.acts.push(action);
  }
  async readClipboard(): Promise<string> {
    return '';
  }
  async writeClipboard(): Promise<void> {}
  async notify(notification: DesktopNotification): Promise<void> {
    this.notifications.push(notification);
  }
}

let root: string;
let paths: TandemPaths;
let gate: ApprovalGate;

beforeEach(() => {
  ({ root, paths, gate } = makeGateHome('tandem-ui-dispatch-'));
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

type Decision = 'approve' | 'deny' | 'allow-session';

/**
 * Lets pending work run until `condition` holds, never sleeping. A UI step's judging reads the
 * hooks folder and policy files on the thread pool, which takes many more turns than
 * support/untilTrue's 200 when the machine is busy; the test's timeout ends a real hang.
 */
async function settled(condition: () => boolean, what: string): Promise<void> {
  for (let turn = 0; turn < 1_000_000; turn++) {
    if (condition()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`never happened: ${what}`);
}

function setup() {
  const pane = new FakePane();
  const desktop = new StandInDesktop();
  const audit: AuditRecord[] = [];
  const conversation = new Conversation({
    surroundings: () => ({ status: 'idle', backend: 'anthropic', model: 'm', budget: { used: 0, limit: 0 }, grants: [], policyProblems: [] }),
    emit: () => undefined,
  });
  const dispatcher = new ToolDispatcher([screenshotTool, readScreenTextTool, listWindowsTool, uiActionTool, computerTool], {
    pane: (paneId) => (paneId === pane.id ? pane : undefined),
    paneId: () => pane.id,
    cwd: () => pane.cwd,
    homeDir: '/home/user',
    conversation,
    gate,
    audit: { append: async (record: AuditRecord) => void audit.push(record) },
    stepTimeoutMs: () => 60_000,
    desktop,
  });
  let next = 0;
  /** One response with these calls; each step that asks gets the next of `decisions` (none left: it may not ask). */
  const respond = async (calls: { name: string; input: unknown }[], ...decisions: Decision[]) => {
    const withIds = calls.map((call) => ({ id: `t${++next}`, ...call }));
    for (const call of withIds) dispatcher.toolUse(call);
    dispatcher.responseComplete();
    const plan = dispatcher.plan;
    const asked: { command: string; kind?: string; ui?: unknown; blocked: boolean }[] = [];
    let finished = false;
    const executing = dispatcher.execute(withIds).finally(() => (finished = true));
    if (plan) {
      for (;;) {
        await settled(() => finished || plan.waitingForUser, 'the plan finished or asked');
        if (finished) break;
        const wait = plan.plan.waitingFor();
        const step = wait.for === 'user' ? wait.step : undefined;
        if (!step) throw new Error('the plan waits for the user without a step');
        const view = plan.plan.view().steps.find((candidate) => candidate.id === step.id);
        asked.push({ command: step.command, kind: view?.kind, ui: view?.ui, blocked: view?.approval?.blocked ?? false });
        const decision = decisions.shift();
        if (!decision) throw new Error(`step "${step.command}" asked`);
        plan.stepAction(step.id, decision);
      }
    }
    const { results } = await executing;
    const text = results.map((result) => {
      const content = (result as { content: unknown }).content;
      return typeof content === 'string' ? content : JSON.stringify(content);
    });
    return { results, text, asked, steps: plan?.plan.view().steps ?? [] };
  };
  return { dispatcher, desktop, respond, audit };
}

describe('ui_action through the plan', () => {
  it('screenshot, then a click on the OCR box of Cancel: a UI step with the marked screenshot asks; approved, the click lands on the screen pixel', async () => {
    const { desktop, respond, audit } = setup();
    const shot = await respond([{ name: 'screenshot', input: { target: 'screen' } }], 'approve');
    const screenshotId = shot.steps[0]?.screenshot?.id;
    expect(screenshotId).toBeDefined();
    await respond([{ name: 'read_screen_text', input: { target: 'screen' } }]);
    const click = await respond([{ name: 'ui_action', input: { action: 'click', x: 640, y: 420, purpose: 'close the dialog' } }], 'approve');
    expect(click.asked).toEqual([
      {
        command: 'ui_action click 640,420',
        kind: 'ui',
        blocked: false,
        ui: {
          action: 'click',
          description: "click at 640,420 on 'Cancel' in window 'Build failed' (Xmessage)",
          window: { id: '0x2a00007', title: 'Build failed', application: 'Xmessage' },
          // The dialog's frame (700,450 500×250 on screen) in the 1280×720 image, outlined on the crop.
          target: { screenshotId, width: 1280, height: 720, at: { x: 640, y: 420 }, frame: { x: 466, y: 300, width: 334, height: 167 } },
        },
      },
    ]);
    expect(desktop.acts).toEqual([{ kind: 'click', at: { x: 960, y: 630 }, button: 'left', count: 1 }]);
    expect(click.steps[0]).toMatchObject({ kind: 'ui', status: 'done' });
    expect(click.results[0]).not.toHaveProperty('is_error');
    expect(click.text[0]).toContain("Done: click at 640,420 on 'Cancel' in window 'Build failed' (Xmessage) (screen pixel 960,630)");
    // The audit trail has the action in words.
    expect(audit.map((record) => record.command)).toContain("click at 640,420 on 'Cancel' in window 'Build failed' (Xmessage)");
  });

  it('denied: nothing is clicked and the model is told', async () => {
    const { desktop, respond } = setup();
    await respond([{ name: 'screenshot', input: { target: 'screen' } }], 'approve');
    const { results, steps } = await respond([{ name: 'ui_action', input: { action: 'click', x: 640, y: 420 } }], 'deny');
    expect(desktop.acts).toEqual([]);
    expect(steps[0]?.status).toBe('denied');
    expect(results[0]).toMatchObject({ is_error: true, content: expect.stringContaining('denied') });
  });

  it('Allow for session covers that application only', async () => {
    const { desktop, respond } = setup();
    await respond([{ name: 'screenshot', input: { target: 'screen' } }], 'approve');
    await respond([{ name: 'ui_action', input: { action: 'click', x: 640, y: 420 } }], 'allow-session');
    expect((await respond([{ name: 'ui_action', input: { action: 'double_click', x: 600, y: 400 } }])).asked).toEqual([]);
    // The xterm, outside the dialog: asks.
    expect((await respond([{ name: 'ui_action', input: { action: 'click', x: 100, y: 100 } }], 'approve')).asked).toHaveLength(1);
    expect(desktop.acts).toHaveLength(3);
  });

  it('a point before any screenshot is refused with what to do, and nothing asks', async () => {
    const { desktop, respond } = setup();
    const { asked, results, steps } = await respond([{ name: 'ui_action', input: { action: 'click', x: 640, y: 420 } }]);
    expect(asked).toEqual([]);
    expect(steps[0]).toMatchObject({ kind: 'ui', status: 'failed' });
    expect(results[0]).toMatchObject({ is_error: true, content: expect.stringContaining('there is no screenshot of anything in this conversation yet') });
    expect(desktop.acts).toEqual([]);
  });

  it('an invalid call makes no step; the model hears what is wrong', async () => {
    const { respond } = setup();
    const { asked, results, steps } = await respond([{ name: 'ui_action', input: { action: 'drag', x: 1, y: 2 } }]);
    expect(asked).toEqual([]);
    expect(steps).toEqual([]);
    expect(results[0]).toMatchObject({ is_error: true, content: expect.stringContaining('drag needs "to_x" and "to_y"') });
  });

  it('typing into the focused terminal is RED: blocked on its card, and nothing is typed', async () => {
    const { desktop, respond } = setup();
    desktop.windows = desktop.windows.map((window) => ({ ...window, focused: window.application === 'XTerm' }));
    const { asked, results } = await respond([{ name: 'ui_action', input: { action: 'type', text: 'rm -rf ~\n' } }], 'deny');
    expect(asked).toMatchObject([{ kind: 'ui', blocked: true, ui: { action: 'type', window: { application: 'XTerm' } } }]);
    expect(desktop.acts).toEqual([]);
    expect(results[0]).toMatchObject({ is_error: true });
  });

  it('[approval.ui] allow_apps runs a click in that application without asking', async () => {
    writeFileSync(join(paths.configDir, 'policy.toml'), '[approval.ui]\nallow_apps = ["Xmessage"]\n');
    const { desktop, respond } = setup();
    await respond([{ name: 'screenshot', input: { target: 'screen' } }], 'approve');
    const click = await respond([{ name: 'ui_action', input: { action: 'click', x: 640, y: 420 } }]);
    expect(click.asked).toEqual([]);
    expect(click.steps[0]?.decider).toMatchObject({ by: 'policy' });
    expect(desktop.acts).toHaveLength(1);
  });

  it('a notification asks, then shows', async () => {
    const { desktop, respond } = setup();
    await respond([{ name: 'ui_action', input: { action: 'notify', title: 'Build', text: 'fixed' } }], 'approve');
    expect(desktop.notifications).toEqual([{ title: 'Build', body: 'fixed' }]);
  });
});

describe('the computer-use tool through the plan', () => {
  it('its screenshot is a look step; its left_click a UI step named "click", at the display pixel scaled to the screen', async () => {
    const { desktop, respond } = setup();
    const shot = await respond([{ name: 'computer', input: { action: 'screenshot' } }], 'approve');
    expect(shot.steps[0]).toMatchObject({ kind: 'screenshot', status: 'done' });
    const click = await respond([{ name: 'computer', input: { action: 'left_click', coordinate: [640, 420] } }], 'approve');
    expect(click.asked).toMatchObject([{ command: 'computer click 640,420', kind: 'ui', ui: { action: 'click', target: { screenshotId: shot.steps[0]?.screenshot?.id } } }]);
    expect(desktop.acts).toEqual([{ kind: 'click', at: { x: 960, y: 630 }, button: 'left', count: 1 }]);
  });

  it('an action Tandem does not do is refused to the model, with what to use instead', async () => {
    const { respond } = setup();
    const { results, steps } = await respond([{ name: 'computer', input: { action: 'left_mouse_down' } }]);
    expect(steps).toEqual([]);
    expect(results[0]).toMatchObject({ is_error: true, content: 'Not done: Tandem does not do left_mouse_down; use left_click_drag.' });
  });

  it('wait runs unasked', async () => {
    const { respond } = setup();
    const { asked, text } = await respond([{ name: 'computer', input: { action: 'wait', duration: 0 } }]);
    expect(asked).toEqual([]);
    expect(text[0]).toContain('Waited 0 s');
  });
});

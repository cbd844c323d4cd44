import fc from 'fast-check';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PlanStep } from '../../src/main/agent/plan/planStep';
import { ScreenshotMemory } from '../../src/main/agent/vision/screenshotMemory';
import { uiCommand, type UiRequest } from '../../src/main/agent/vision/uiRequest';
import { UiSteps, type UiJudging } from '../../src/main/agent/vision/uiSteps';
import type { Desktop, DesktopAvailability, DesktopNotification, ScreenInfo, UiAction, WindowInfo } from '../../src/main/desktop/desktop';
import { DesktopError } from '../../src/main/desktop/desktopError';
import { pseudo } from '../support/pseudoText';
import type { Rect } from '../../src/main/desktop/geometry';
import { ScreenshotSpace, type Surface } from '../../src/main/desktop/screenshotSpace';
import type { ApprovalGate } from '../../src/main/safety/approval/approvalGate';
import type { ProposedUiAction } from '../../src/main/safety/approval/uiActionDecision';
import type { TandemPaths } from '../../src/main/settings/paths';
import { makeGateHome } from '../support/gateHome';
import { untilTrue } from '../support/untilTrue';

// UiSteps over the real approval gate (policy files in a temp home) and a real
// ScreenshotMemory; only the desktop is a stand-in (the real one runs under Xvfb in
// test/integration/desktop/uiAgent.test.ts).

/** A desktop whose windows and screens the test sets; it records what it is asked to do. */
class StandInDesktop implements Desktop {
  windows: WindowInfo[] = [];
  screenList: ScreenInfo[] = [{ index: 0, name: 'screen 0', rect: { x: 0, y: 0, width: 1920, height: 1080 }, primary: true }];
  readonly acts: { action: UiAction; surface: Surface | undefined }[] = [];
  readonly notifications: DesktopNotification[] = [];
  readonly windowListSignals: (AbortSignal | undefined)[] = [];
  clipboard = '';
  /** Set: listWindows waits until its request is aborted (a window list that hangs). */
  hangingWindowList = false;

  async availability(): Promise<DesktopAvailability> {
    return { available: true, implementation: 'stand-in', screenInput: true };
  }
  async screenshot(): Promise<never> {
    throw new Error('UI steps never take screenshots');
  }
  async readText(): Promise<never> {
    throw new Error('UI steps never read the screen');
  }
  listWindows(signal?: AbortSignal): Promise<WindowInfo[]> {
    this.windowListSignals.push(signal);
    if (!this.hangingWindowList) return Promise.resolve(this.windows.map((window) => ({ ...window })));
    if (!signal) return Promise.reject(new Error('a window list that may hang must be interruptible'));
    const stopped = () => new DesktopError('interrupted', 'xprop was stopped');
    if (signal.aborted) return Promise.reject(stopped());
    return new Promise((_, reject) => signal.addEventListener('abort', () => reject(stopped()), { once: true }));
  }
  async screens(): Promise<ScreenInfo[]> {
    return this.screenList;
  }
  readonly actSignals: (AbortSignal | undefined)[] = [];
  async act(action: UiAction, surface?: Surface, signal?: AbortSignal): Promise<void> {
    this.acts.push({ action, surface });
    this.actSignals.push(signal);
  }
  async readClipboard(): Promise<string> {
    return this.clipboard;
  }
  async writeClipboard(text: string): Promise<void> {
    this.clipboard = text;
  }
  async notify(notification: DesktopNotification): Promise<void> {
    this.notifications.push(notification);
  }
}

function windowOf(id: string, title: string, application: string, frame: Rect, more: Partial<WindowInfo> = {}): WindowInfo {
  return { id, title, application, instance: application.toLowerCase(), geometry: frame, frame, focused: false, visible: true, screen: 0, excluded: false, ...more };
}

const SCREEN: Rect = { x: 0, y: 0, width: 1920, height: 1080 };
const desktopWindow = windowOf('0x1000001', 'Desktop', 'Pcmanfm', SCREEN);
const installer = windowOf('0x2a00007', 'Installer', 'XMessage', { x: 600, y: 300, width: 600, height: 300 });
const xterm = windowOf('0x1400002', 'bash', 'XTerm', { x: 0, y: 0, width: 800, height: 600 });
const keepass = windowOf('0x3000001', 'KeePassXC', 'KeePassXC', { x: 1300, y: 600, width: 500, height: 400 }, { excluded: true });

let root: string;
let paths: TandemPaths;
let gate: ApprovalGate;
let desktop: StandInDesktop;
let memory: ScreenshotMemory;
let steps: UiSteps;
/** What UiSteps put before the gate. */
let judged: { action: ProposedUiAction; kind: string }[];

beforeEach(() => {
  ({ root, paths, gate } = makeGateHome('tandem-ui-steps-'));
  desktop = new StandInDesktop();
  desktop.windows = [desktopWindow, xterm, installer, keepass];
  memory = new ScreenshotMemory();
  judged = [];
  steps = new UiSteps({
    desktop,
    gate: { decideUi: (action, kind) => (judged.push({ action, kind }), gate.decideUi(action, kind)) },
    memory,
  });
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

const where: UiJudging = { auto: false, cwd: '/home/user', planId: 'p1', conversationId: 'c1' };

let nextStep = 0;
function stepOf(request: Partial<UiRequest> & Pick<UiRequest, 'action'>, id = `s${++nextStep}`): PlanStep {
  const uiRequest: UiRequest = { via: 'ui_action', ...request };
  return { id, index: 1, command: uiCommand(uiRequest), purpose: 'testing', status: 'proposed', toolUseId: `t-${id}`, tool: uiRequest.via, uiRequest, paneId: 7 };
}

/** The model saw the whole 1920×1080 screen as a 1280×720 image (and read its words). */
function lookedAtScreen(words = [{ text: 'Retry', box: { x: 500, y: 320, width: 60, height: 20 }, confidence: 90, line: 0 }]): ScreenshotSpace {
  const space = ScreenshotSpace.forCapture(SCREEN);
  memory.remember({ kind: 'screen' }, space, 'the screen', { screenshot: { id: 'shot-1', width: 1280, height: 720, description: 'screen' }, words });
  return space;
}

async function judgeAndRun(step: PlanStep, signal?: AbortSignal) {
  const judgement = await steps.judge(step, where);
  const end = await steps.run(step, signal);
  return { judgement, end };
}

describe('a point is a pixel of the last screenshot of its target', () => {
  it('a click in a 1280×720 screenshot of a 1920×1080 screen lands on the screen pixel it shows, on the window under it', async () => {
    lookedAtScreen();
    const step = stepOf({ action: 'click', at: { x: 520, y: 330 } });
    const judgement = await steps.judge(step, where);
    expect(judgement.ok).toBe(true);
    if (!judgement.ok) return;
    // (520.5 / (2/3)) - 0.5 = 780.25 → 780; (330.5 * 1.5) - 0.5 = 495.25 → 495: inside the installer, which is above the xterm.
    expect(judgement.view).toMatchObject({
      action: 'click',
      description: "click at 520,330 on 'Retry' in window 'Installer' (XMessage)",
      window: { id: installer.id, title: 'Installer', application: 'XMessage' },
      // The installer's frame (600,300 600×300 on screen) in the image, outlined on the card's crop.
      target: { screenshotId: 'shot-1', width: 1280, height: 720, at: { x: 520, y: 330 }, frame: { x: 400, y: 200, width: 400, height: 200 } },
    });
    // The gate judged the action in words, with the window; the step keeps its own line.
    expect(judged[0]?.action).toMatchObject({ command: judgement.view.description, window: { id: installer.id }, intoTerminal: false, harmless: false, auto: false, planId: 'p1', paneId: 7 });
    expect(judgement.decision).toMatchObject({ decision: 'ask', command: step.command, shape: 'ui actions in XMessage' });
    const end = await steps.run(step);
    expect(end).toMatchObject({ kind: 'acted', ok: true });
    expect(end.content).toContain('screen pixel 780,495');
    expect(desktop.acts).toEqual([{ action: { kind: 'click', at: { x: 780, y: 495 }, button: 'left', count: 1 }, surface: 'desktop' }]);
  });

  it('each pointer action becomes the desktop action with its button and count', async () => {
    lookedAtScreen([]);
    const at = { x: 100, y: 100 };
    const screenAt = { x: 150, y: 150 };
    const cases: [Partial<UiRequest> & Pick<UiRequest, 'action'>, UiAction][] = [
      [{ action: 'double_click', at }, { kind: 'click', at: screenAt, button: 'left', count: 2 }],
      [{ action: 'triple_click', at }, { kind: 'click', at: screenAt, button: 'left', count: 3 }],
      [{ action: 'right_click', at }, { kind: 'click', at: screenAt, button: 'right', count: 1 }],
      [{ action: 'move', at }, { kind: 'move', at: screenAt }],
      [{ action: 'scroll', at, scroll: { down: -3, right: 0 } }, { kind: 'scroll', at: screenAt, down: -3, right: 0 }],
      [{ action: 'drag', at, to: { x: 200, y: 10 } }, { kind: 'drag', from: screenAt, to: { x: 300, y: 15 }, button: 'left' }],
    ];
    desktop.windows = [desktopWindow];
    for (const [request, expected] of cases) {
      const { end } = await judgeAndRun(stepOf(request));
      expect(end.ok, `${request.action}: ${end.content as string}`).toBe(true);
      expect(desktop.acts.at(-1)?.action).toEqual(expected);
    }
  });

  it('the window the gate sees is the topmost visible window under the point, and the click goes to that point (any point, any stack)', async () => {
    const space = lookedAtScreen([]);
    const arbitraryWindow = fc.record({
      x: fc.integer({ min: -100, max: 1900 }),
      y: fc.integer({ min: -100, max: 1000 }),
      width: fc.integer({ min: 1, max: 1200 }),
      height: fc.integer({ min: 1, max: 900 }),
      visible: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(arbitraryWindow, { maxLength: 6 }), fc.integer({ min: 0, max: 1279 }), fc.integer({ min: 0, max: 719 }), async (stack, x, y) => {
        desktop.windows = stack.map((w, i) => windowOf(`0x${(i + 16).toString(16)}`, `w${i}`, `App${i}`, { x: w.x, y: w.y, width: w.width, height: w.height }, { visible: w.visible }));
        judged = [];
        desktop.acts.length = 0;
        const screenPoint = space.toScreen({ x, y });
        const expected = [...desktop.windows]
          .reverse()
          .find((w) => w.visible && screenPoint.x >= w.frame.x && screenPoint.y >= w.frame.y && screenPoint.x < w.frame.x + w.frame.width && screenPoint.y < w.frame.y + w.frame.height);
        const { judgement, end } = await judgeAndRun(stepOf({ action: 'click', at: { x, y } }));
        expect(judgement.ok).toBe(true);
        expect(judged[0]?.action.window?.id).toBe(expected?.id);
        expect(end.ok).toBe(true);
        expect(desktop.acts).toEqual([{ action: { kind: 'click', at: screenPoint, button: 'left', count: 1 }, surface: 'desktop' }]);
        // The screen pixel shows the image pixel the model named.
        expect(space.toImage(screenPoint)).toEqual({ x, y });
      }),
      { numRuns: 60 },
    );
  });

  it('before any screenshot, a point is refused with what to do, and the gate is not asked', async () => {
    const judgement = await steps.judge(stepOf({ action: 'click', at: { x: 10, y: 10 } }), where);
    expect(judgement).toEqual({ ok: false, message: expect.stringMatching(/^Not done: there is no screenshot of anything in this conversation yet\. Take one/) });
    expect(judged).toEqual([]);
    const named = await steps.judge(stepOf({ action: 'click', at: { x: 10, y: 10 }, target: { kind: 'window', windowId: '0x2a00007' } }), where);
    expect(named.ok ? '' : named.message).toContain('no screenshot of window 0x2a00007');
    const run = await steps.run(stepOf({ action: 'click', at: { x: 10, y: 10 } }));
    expect(run).toMatchObject({ ok: false });
    expect(desktop.acts).toEqual([]);
  });

  it('a point is in the screenshot of the target it names, not in the last one taken', async () => {
    lookedAtScreen([]);
    // Then a look at the installer window alone, unscaled (600×300 at 600,300).
    memory.remember({ kind: 'window', windowId: installer.id }, ScreenshotSpace.forCapture(installer.frame), "window 'Installer'", { screenshot: { id: 'shot-2', width: 600, height: 300, description: 'w' } });
    await judgeAndRun(stepOf({ action: 'click', at: { x: 10, y: 20 } }));
    expect(desktop.acts.at(-1)?.action).toMatchObject({ at: { x: 610, y: 320 } });
    await judgeAndRun(stepOf({ action: 'click', at: { x: 10, y: 20 }, target: { kind: 'screen' } }));
    expect(desktop.acts.at(-1)?.action).toMatchObject({ at: { x: 15, y: 30 } });
    // Window ids are named in any case.
    await judgeAndRun(stepOf({ action: 'click', at: { x: 1, y: 2 }, target: { kind: 'window', windowId: '0X2A00007' } }));
    expect(desktop.acts.at(-1)?.action).toMatchObject({ at: { x: 601, y: 302 } });
  });

  it('"region" without a rectangle is the last region looked at', async () => {
    memory.remember({ kind: 'region', rect: { x: 100, y: 100, width: 50, height: 50 } }, ScreenshotSpace.forCapture({ x: 100, y: 100, width: 50, height: 50 }), 'r1', {});
    memory.remember({ kind: 'region', rect: { x: 700, y: 400, width: 50, height: 50 } }, ScreenshotSpace.forCapture({ x: 700, y: 400, width: 50, height: 50 }), 'r2', {});
    lookedAtScreen([]);
    await judgeAndRun(stepOf({ action: 'click', at: { x: 5, y: 5 }, target: { kind: 'region' } }));
    expect(desktop.acts.at(-1)?.action).toMatchObject({ at: { x: 705, y: 405 } });
  });

  it('a point outside the image is refused, never clamped; one pixel past the edge is the edge', async () => {
    lookedAtScreen([]);
    for (const at of [{ x: 1282, y: 10 }, { x: 10, y: 722 }, { x: -2, y: 0 }]) {
      const judgement = await steps.judge(stepOf({ action: 'click', at }), where);
      expect(judgement.ok ? '' : judgement.message).toMatch(/outside the 1280×720 screenshot/);
    }
    const judgement = await steps.judge(stepOf({ action: 'drag', at: { x: 10, y: 10 }, to: { x: 2000, y: 10 } }), where);
    expect(judgement.ok).toBe(false);
    expect(judged).toEqual([]);
    await judgeAndRun(stepOf({ action: 'click', at: { x: 1280, y: 720 } }));
    expect(desktop.acts.at(-1)?.action).toMatchObject({ at: { x: 1919, y: 1079 } });
  });

  it('a look at a pane is on Tandem\'s own surface: the click goes there, to Tandem\'s window', async () => {
    const tandem = windowOf('tandem', 'Tandem', 'Tandem', { x: 0, y: 0, width: 1000, height: 800 });
    desktop.windows = [tandem, installer];
    memory.remember({ kind: 'pane', paneId: 2 }, ScreenshotSpace.forCapture({ x: 0, y: 30, width: 800, height: 600 }, 'tandem'), 'pane 2', {});
    const { judgement } = await judgeAndRun(stepOf({ action: 'click', at: { x: 700, y: 300 }, target: { kind: 'pane', paneId: 2 } }));
    expect(judged[0]?.action.window?.id).toBe('tandem');
    expect(judgement.ok && judgement.view.window?.id).toBe('tandem');
    expect(desktop.acts).toEqual([{ action: { kind: 'click', at: { x: 700, y: 330 }, button: 'left', count: 1 }, surface: 'tandem' }]);
  });
});

describe('the window the action reaches, as the gate judges it', () => {
  it('typing goes to the focused window; into a terminal it is RED and blocked', async () => {
    desktop.windows = [desktopWindow, { ...xterm, focused: true }, installer];
    const judgement = await steps.judge(stepOf({ action: 'type', text: 'rm -rf ~\n' }), where);
    expect(judgement.ok && judgement.decision).toMatchObject({ decision: 'ask', blocked: true, level: 'red' });
    expect(judged[0]?.action).toMatchObject({ intoTerminal: true, window: { id: xterm.id }, command: `type "rm -rf ~\\n" into window 'bash' (XTerm)` });
    // Keys too, and a middle click (which pastes) on a terminal.
    expect((await steps.judge(stepOf({ action: 'key', keys: 'ctrl+d' }), where)).ok && judged[1]?.action.intoTerminal).toBe(true);
    lookedAtScreen([]);
    await steps.judge(stepOf({ action: 'middle_click', at: { x: 100, y: 100 } }), where);
    expect(judged[2]?.action).toMatchObject({ intoTerminal: true, window: { id: xterm.id } });
    // A left click on a terminal is an ordinary click.
    await steps.judge(stepOf({ action: 'click', at: { x: 100, y: 100 } }), where);
    expect(judged[3]?.action.intoTerminal).toBe(false);
    // A right click may paste too (many terminals paste on it, or offer Paste there).
    await steps.judge(stepOf({ action: 'right_click', at: { x: 100, y: 100 } }), where);
    expect(judged[4]?.action).toMatchObject({ intoTerminal: true, window: { id: xterm.id } });
  });

  it('typing into an ordinary focused window asks (YELLOW)', async () => {
    desktop.windows = [desktopWindow, xterm, { ...installer, focused: true }];
    const judgement = await steps.judge(stepOf({ action: 'type', text: 'hello' }), where);
    expect(judgement.ok && judgement.decision).toMatchObject({ decision: 'ask', blocked: false, level: 'yellow' });
    expect(judged[0]?.action.window?.id).toBe(installer.id);
  });

  it('a drag onto a terminal from another window is RED; a drag within the terminal is not', async () => {
    lookedAtScreen([]);
    // From the installer (900,450 on screen) onto the xterm (150,150).
    await steps.judge(stepOf({ action: 'drag', at: { x: 600, y: 300 }, to: { x: 100, y: 100 } }), where);
    expect(judged[0]?.action).toMatchObject({ intoTerminal: true, window: { id: installer.id } });
    expect(judged[0]?.action.command).toContain("onto window 'bash' (XTerm)");
    await steps.judge(stepOf({ action: 'drag', at: { x: 10, y: 10 }, to: { x: 100, y: 100 } }), where);
    expect(judged[1]?.action.intoTerminal).toBe(false);
  });

  it('an action on a window of the privacy list is denied; so is a drop onto one', async () => {
    lookedAtScreen([]);
    // KeePassXC covers 1300..1800 × 600..1000 on screen: 867..1199 × 400..666 in the image.
    const onIt = await steps.judge(stepOf({ action: 'click', at: { x: 1000, y: 500 } }), where);
    expect(onIt.ok && onIt.decision.decision).toBe('deny');
    const dropped = await steps.judge(stepOf({ action: 'drag', at: { x: 600, y: 300 }, to: { x: 1000, y: 500 } }), where);
    expect(judged[1]?.action.window?.id).toBe(keepass.id);
    expect(dropped.ok && dropped.decision.decision).toBe('deny');
    // The card, the audit line and the model get the action in words: nothing of the window's own.
    expect(onIt.ok && onIt.view).toMatchObject({ action: 'click', description: 'click at 1000,500 in a window on the privacy list' });
    expect(onIt.ok && onIt.view.window).toBeUndefined();
    expect(judged.map((judging) => judging.action.command)).toEqual(['click at 1000,500 in a window on the privacy list', "drag from 600,300 to 1000,500 in window 'Installer' (XMessage) onto a window on the privacy list"]);
    expect(JSON.stringify([onIt, dropped])).not.toMatch(/KeePass|0x3000001/i);
  });

  it('a drag is judged by the window it drops onto as well: deny_titles, allow_apps', async () => {
    const bank = windowOf('0x6600001', 'My Bank - Firefox', 'firefox', { x: 1300, y: 0, width: 600, height: 500 });
    desktop.windows = [desktopWindow, installer, bank];
    lookedAtScreen([]);
    // From the installer (900,450 on screen) onto the bank's page (1500,150).
    const request = { action: 'drag' as const, at: { x: 600, y: 300 }, to: { x: 1000, y: 100 } };
    writeFileSync(join(paths.configDir, 'policy.toml'), '[approval.ui]\nallow_apps = ["XMessage"]\n');
    const asked = await steps.judge(stepOf(request), where);
    expect(judged[0]?.action).toMatchObject({ window: { id: installer.id }, dropWindow: { id: bank.id } });
    expect(asked.ok && asked.decision).toMatchObject({ decision: 'ask', blocked: false });
    writeFileSync(join(paths.configDir, 'policy.toml'), '[approval.ui]\nallow_apps = ["XMessage"]\ndeny_titles = ["*Bank*"]\n');
    const blocked = await steps.judge(stepOf(request), where);
    expect(blocked.ok && blocked.decision).toMatchObject({ decision: 'ask', blocked: true, level: 'red' });
  });

  it('[approval.ui] allow_apps lets a click on that application run without asking', async () => {
    writeFileSync(join(paths.configDir, 'policy.toml'), '[approval.ui]\nallow_apps = ["XMessage"]\n');
    lookedAtScreen([]);
    const onInstaller = await steps.judge(stepOf({ action: 'click', at: { x: 600, y: 300 } }), where);
    expect(onInstaller.ok && onInstaller.decision.decision).toBe('allow');
    const onDesktop = await steps.judge(stepOf({ action: 'click', at: { x: 1270, y: 10 } }), where);
    expect(onDesktop.ok && onDesktop.decision.decision).toBe('ask');
  });

  it('window actions name their window by id (hex in any case, or decimal); an unknown id is refused', async () => {
    const focus = stepOf({ action: 'focus_window', windowId: '0X2A00007' });
    const { judgement, end } = await judgeAndRun(focus);
    expect(judgement.ok && judgement.view.description).toBe("focus window 'Installer' (XMessage)");
    expect(end.ok).toBe(true);
    expect(desktop.acts.at(-1)?.action).toEqual({ kind: 'focus_window', windowId: '0X2A00007' });
    const decimal = await steps.judge(stepOf({ action: 'close_window', windowId: String(0x2a00007) }), where);
    expect(judged.at(-1)?.action.window?.id).toBe(installer.id);
    expect(decimal.ok).toBe(true);
    const unknown = await steps.judge(stepOf({ action: 'close_window', windowId: '0xdead' }), where);
    expect(unknown).toEqual({ ok: false, message: 'Not done: there is no window 0xdead (list_windows gives the current ids)' });
    await judgeAndRun(stepOf({ action: 'move_window', windowId: installer.id, at: { x: 5, y: 6 } }));
    expect(desktop.acts.at(-1)?.action).toEqual({ kind: 'move_window', windowId: installer.id, to: { x: 5, y: 6 } });
    await judgeAndRun(stepOf({ action: 'resize_window', windowId: installer.id, width: 300, height: 200 }));
    expect(desktop.acts.at(-1)?.action).toEqual({ kind: 'resize_window', windowId: installer.id, width: 300, height: 200 });
  });

  it('the clipboard and notifications need no window or screenshot; read text goes to the model with secrets redacted', async () => {
    const token = `ghp_${pseudo(36)}`; // random: a typed-out alphabet would be a placeholder, left as it is
    desktop.clipboard = `token: ${token}`;
    const read = await judgeAndRun(stepOf({ action: 'read_clipboard' }));
    expect(read.judgement.ok && read.judgement.decision).toMatchObject({ decision: 'ask', shape: 'ui: read_clipboard' });
    expect(read.end.ok).toBe(true);
    expect(read.end.content).toContain('The clipboard holds');
    expect(read.end.content).not.toContain(token);
    expect(read.end.content).toContain('[REDACTED:github-token]');
    desktop.clipboard = '';
    expect((await steps.run(stepOf({ action: 'read_clipboard' }))).content).toBe('The clipboard holds no text.');
    await judgeAndRun(stepOf({ action: 'write_clipboard', text: 'copied' }));
    expect(desktop.clipboard).toBe('copied');
    await judgeAndRun(stepOf({ action: 'notify', title: 'Build', text: 'done' }));
    expect(desktop.notifications).toEqual([{ title: 'Build', body: 'done' }]);
    expect(desktop.acts).toEqual([]);
    expect(desktop.windowListSignals).toEqual([]);
  });

  it('waiting and asking where the pointer is are harmless: allowed without asking', async () => {
    const wait = await steps.judge(stepOf({ action: 'wait', seconds: 0 }), where);
    expect(wait.ok && wait.decision).toMatchObject({ decision: 'allow', level: 'green' });
    const cursor = await judgeAndRun(stepOf({ action: 'cursor_position', via: 'computer' }));
    expect(cursor.judgement.ok && cursor.judgement.decision.decision).toBe('allow');
    expect(cursor.end.content).toMatch(/does not report where the pointer is/);
  });

  it('without a desktop capability every action says so', async () => {
    steps = new UiSteps({ desktop: undefined, gate, memory });
    lookedAtScreen([]);
    for (const request of [{ action: 'click' as const, at: { x: 1, y: 1 } }, { action: 'type' as const, text: 'x' }, { action: 'read_clipboard' as const }]) {
      const step = stepOf(request);
      const judgement = await steps.judge(step, where);
      const end = await steps.run(step);
      if (!judgement.ok) expect(judgement.message).toContain('no desktop capability');
      expect(end).toMatchObject({ ok: false, content: expect.stringContaining('no desktop capability') });
    }
  });
});

describe('the screen changed between approval and run', () => {
  it('a different window under the point: refused, nothing clicked', async () => {
    lookedAtScreen([]);
    const step = stepOf({ action: 'click', at: { x: 600, y: 300 } });
    expect((await steps.judge(step, where)).ok).toBe(true);
    // A dialog opened on top of the installer meanwhile.
    desktop.windows = [...desktop.windows, windowOf('0x4400001', 'Delete all files?', 'Zenity', { x: 800, y: 400, width: 300, height: 200 })];
    const end = await steps.run(step);
    expect(end).toMatchObject({ kind: 'acted', ok: false });
    expect(end.content).toMatch(/the screen changed after the step was approved: at that point is now window 'Delete all files\?' \(Zenity\)\. Take a new screenshot\./);
    expect(desktop.acts).toEqual([]);
  });

  it('the window under the point is gone: refused', async () => {
    lookedAtScreen([]);
    const step = stepOf({ action: 'click', at: { x: 600, y: 300 } });
    await steps.judge(step, where);
    desktop.windows = [];
    expect((await steps.run(step)).content).toContain('is now no window');
    expect(desktop.acts).toEqual([]);
  });

  it('the keyboard focus moved to another window: typing is refused', async () => {
    desktop.windows = [desktopWindow, xterm, { ...installer, focused: true }];
    const step = stepOf({ action: 'type', text: 'yes' });
    await steps.judge(step, where);
    desktop.windows = [desktopWindow, { ...xterm, focused: true }, installer];
    const end = await steps.run(step);
    expect(end.content).toMatch(/with the keyboard focus is now window 'bash' \(XTerm\)/);
    expect(desktop.acts).toEqual([]);
  });

  it('the window under a drag\'s drop point changed (now a terminal): refused', async () => {
    lookedAtScreen([]);
    // From the installer onto the empty desktop (1800,60 on screen).
    const step = stepOf({ action: 'drag', at: { x: 600, y: 300 }, to: { x: 1200, y: 40 } });
    const judgement = await steps.judge(step, where);
    expect(judged[0]?.action.intoTerminal).toBe(false);
    expect(judgement.ok).toBe(true);
    // A terminal opened where the text would be dropped.
    desktop.windows = [...desktop.windows, windowOf('0x5500001', 'root@server', 'XTerm', { x: 1700, y: 0, width: 220, height: 200 })];
    const end = await steps.run(step);
    expect(end.ok).toBe(false);
    expect(end.content).toMatch(/where it drops is now window 'root@server' \(XTerm\)\. Take a new screenshot\./);
    expect(desktop.acts).toEqual([]);
  });

  it('the same window still there (moved a little, retitled) runs', async () => {
    lookedAtScreen([]);
    const step = stepOf({ action: 'click', at: { x: 600, y: 300 } });
    await steps.judge(step, where);
    desktop.windows = [desktopWindow, xterm, { ...installer, title: 'Installer (2)', frame: { x: 590, y: 290, width: 600, height: 300 } }];
    expect((await steps.run(step)).ok).toBe(true);
    expect(desktop.acts).toHaveLength(1);
  });
});

describe('interrupting a UI step', () => {
  it('a long wait ends at once when the step is interrupted', async () => {
    const controller = new AbortController();
    const running = steps.run(stepOf({ action: 'wait', seconds: 30 }), controller.signal);
    // Past the checks before acting (no time passes: pending work runs), into the wait itself.
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    expect(await running).toMatchObject({ kind: 'acted', ok: false, interrupted: true, content: expect.stringContaining('the user stopped it'), report: 'interrupted' });
  });

  it('an interrupted step does nothing', async () => {
    lookedAtScreen([]);
    const step = stepOf({ action: 'click', at: { x: 600, y: 300 } });
    await steps.judge(step, where);
    const controller = new AbortController();
    controller.abort();
    expect(await steps.run(step, controller.signal)).toMatchObject({ ok: false, interrupted: true });
    expect(desktop.acts).toEqual([]);
  });

  it('a window list that hangs is cut short by the interrupt, and nothing is done', async () => {
    lookedAtScreen([]);
    const step = stepOf({ action: 'click', at: { x: 600, y: 300 } });
    await steps.judge(step, where);
    desktop.hangingWindowList = true;
    const controller = new AbortController();
    const asked = desktop.windowListSignals.length;
    const running = steps.run(step, controller.signal);
    await untilTrue(() => desktop.windowListSignals.length > asked, 'the window list was asked for');
    controller.abort();
    expect(await running).toMatchObject({ ok: false, interrupted: true });
    expect(desktop.windowListSignals.at(-1)).toBe(controller.signal);
    expect(desktop.acts).toEqual([]);
  });

  it('the action itself gets the signal, so typing can stop mid-text', async () => {
    const controller = new AbortController();
    desktop.windows = [{ ...desktop.windows[0]!, focused: true }, ...desktop.windows.slice(1)];
    const step = stepOf({ action: 'type', text: 'hello' });
    await steps.judge(step, where);
    expect(await steps.run(step, controller.signal)).toMatchObject({ ok: true });
    expect(desktop.actSignals.at(-1)).toBe(controller.signal);
  });
});

describe("the computer-use tool's points", () => {
  it('are pixels of the primary screen scaled as its screenshots are, also before any screenshot', async () => {
    desktop.screenList = [
      { index: 0, name: 'left', rect: { x: 0, y: 0, width: 1280, height: 1024 }, primary: false },
      { index: 1, name: 'right', rect: { x: 1280, y: 0, width: 2560, height: 1440 }, primary: true },
    ];
    desktop.windows = [windowOf('0x7', 'Editor', 'Gedit', { x: 1280, y: 0, width: 2560, height: 1440 })];
    // The display is 1280×720: each of its pixels is 2×2 screen pixels.
    const { judgement, end } = await judgeAndRun(stepOf({ action: 'click', via: 'computer', at: { x: 100, y: 50 } }));
    expect(judgement.ok && judgement.view.window?.id).toBe('0x7');
    expect(judgement.ok && judgement.view.target).toBeUndefined();
    expect(end.ok).toBe(true);
    expect(desktop.acts).toEqual([{ action: { kind: 'click', at: { x: 1280 + 201, y: 101 }, button: 'left', count: 1 }, surface: 'desktop' }]);
    const outside = await steps.judge(stepOf({ action: 'click', via: 'computer', at: { x: 1300, y: 10 } }), where);
    expect(outside.ok ? '' : outside.message).toMatch(/outside the 1280×720 screenshot/);
  });

  it('mark the last screenshot of the screen on the card when it is of that display', async () => {
    lookedAtScreen();
    const { judgement } = await judgeAndRun(stepOf({ action: 'click', via: 'computer', at: { x: 520, y: 330 } }));
    expect(judgement.ok && judgement.view).toMatchObject({ description: "click at 520,330 on 'Retry' in window 'Installer' (XMessage)", target: { screenshotId: 'shot-1', at: { x: 520, y: 330 } } });
    // A screenshot of another area is not that display.
    memory.clear();
    memory.remember({ kind: 'screen' }, ScreenshotSpace.forCapture({ x: 0, y: 0, width: 1000, height: 1000 }), 'the screen', { screenshot: { id: 'shot-old', width: 1000, height: 1000, description: '' } });
    const other = await steps.judge(stepOf({ action: 'click', via: 'computer', at: { x: 520, y: 330 } }), where);
    expect(other.ok && other.view.target).toBeUndefined();
  });

  it('with no screen, the action is refused', async () => {
    desktop.screenList = [];
    const judgement = await steps.judge(stepOf({ action: 'click', via: 'computer', at: { x: 1, y: 1 } }), where);
    expect(judgement).toEqual({ ok: false, message: 'Not done: there is no screen' });
  });
});

import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toChatMessages } from '../../src/main/agent/backends/openaiCompatibleBackend';
import type { AgentMessage, ToolResultPart } from '../../src/main/agent/backends/modelBackend';
import { Conversation } from '../../src/main/agent/conversation/conversation';
import { estimateMessagesTokens } from '../../src/main/agent/conversation/conversationHistory';
import { readScreenTextTool } from '../../src/main/agent/tools/readScreenTextTool';
import { listWindowsTool } from '../../src/main/agent/tools/listWindowsTool';
import { screenshotTool } from '../../src/main/agent/tools/screenshotTool';
import { ToolDispatcher } from '../../src/main/agent/tools/toolDispatcher';
import { pngSize } from '../../src/main/agent/vision/imageTokens';
import type { CaptureTarget, Desktop, DesktopAvailability, Screenshot, ScreenText, WindowInfo } from '../../src/main/desktop/desktop';
import { DesktopError } from '../../src/main/desktop/desktopError';
import { OWN_WINDOW_NEEDS_ELECTRON } from '../../src/main/desktop/ownWindow';
import { DEFAULT_EXCLUDED_WINDOWS, WindowExclusion } from '../../src/main/desktop/privacy/windowExclusion';
import { encodePng } from '../../src/main/desktop/raster/pngEncoding';
import { ScreenshotSpace } from '../../src/main/desktop/screenshotSpace';
import type { ApprovalGate } from '../../src/main/safety/approval/approvalGate';
import type { AuditRecord } from '../../src/main/safety/audit/auditEntry';
import type { TandemPaths } from '../../src/main/settings/paths';
import { makeGateHome } from '../support/gateHome';
import { FakePane } from '../support/fakePane';
import { untilTrue } from '../support/untilTrue';

// The screenshot and list_windows tools over the real dispatcher, plan and approval gate;
// only the desktop is a stand-in (the real one is tested under Xvfb in test/integration).

/** A desktop of one 1920×1080 screen: a capture is a real PNG of the scaled size. */
class StandInDesktop implements Partial<Desktop> {
  readonly captures: CaptureTarget[] = [];
  windows: WindowInfo[] = [];
  availabilityNow: DesktopAvailability = { available: true, implementation: 'stand-in', screenInput: true };

  async availability(): Promise<DesktopAvailability> {
    return this.availabilityNow;
  }

  async screenshot(target: CaptureTarget): Promise<Screenshot> {
    this.captures.push(target);
    // As in browser mode: Tandem's own window (and so a pane's image) is not capturable.
    if (target.kind === 'pane') throw new DesktopError('unavailable', OWN_WINDOW_NEEDS_ELECTRON);
    if (target.kind === 'window' && target.windowId === '0xbad') throw new DesktopError('excluded', "window 'KeePassXC' is excluded by the privacy list");
    const space = ScreenshotSpace.forCapture({ x: 0, y: 0, width: 1920, height: 1080 });
    const png = encodePng({ width: space.imageWidth, height: space.imageHeight, data: Buffer.alloc(space.imageWidth * space.imageHeight * 4, 0x80) });
    return { png, space, description: 'screen 0 (1920×1080)', blackedOut: 0 };
  }

  async listWindows(): Promise<WindowInfo[]> {
    return this.windows;
  }

  async readText(target: CaptureTarget): Promise<ScreenText> {
    this.captures.push(target);
    const space = ScreenshotSpace.forCapture({ x: 700, y: 500, width: 300, height: 100 });
    const words = [
      { text: 'Build', box: { x: 10, y: 10, width: 40, height: 12 }, confidence: 90, line: 0 },
      { text: 'failed', box: { x: 55, y: 10, width: 44, height: 12 }, confidence: 90, line: 0 },
      { text: 'Cancel', box: { x: 120, y: 70, width: 48, height: 14 }, confidence: 80, line: 1 },
    ];
    return { words, text: 'Build failed\nCancel', space, description: "window 'Build failed' (0x2)" };
  }
}

let root: string;
let paths: TandemPaths;
let gate: ApprovalGate;

beforeEach(() => {
  ({ root, paths, gate } = makeGateHome('tandem-vision-'));
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

function setup() {
  const pane = new FakePane();
  const desktop = new StandInDesktop();
  const audit: AuditRecord[] = [];
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
    audit: { append: async (record: AuditRecord) => void audit.push(record) },
    stepTimeoutMs: () => 60_000,
    desktop: desktop as unknown as Desktop,
  });
  let next = 0;
  /** One response with these calls; `decide` answers a step that asks (undefined: none may ask). */
  const respond = async (calls: { name: string; input: unknown }[], decide?: 'approve' | 'deny' | 'allow-session') => {
    const withIds = calls.map((call) => ({ id: `t${++next}`, ...call }));
    for (const call of withIds) dispatcher.toolUse(call);
    dispatcher.responseComplete();
    const plan = dispatcher.plan;
    const asked: string[] = [];
    let finished = false;
    const executing = dispatcher.execute(withIds).finally(() => (finished = true));
    if (plan) {
      for (;;) {
        await untilTrue(() => finished || plan.waitingForUser, 'the plan finished or asked');
        if (finished) break;
        const wait = plan.plan.waitingFor();
        const step = wait.for === 'user' ? wait.step : undefined;
        if (!step) throw new Error('the plan waits for the user without a step');
        asked.push(step.command);
        if (!decide) throw new Error(`step "${step.command}" asked`);
        plan.stepAction(step.id, decide);
      }
    }
    const { results } = await executing;
    return { results, asked, steps: plan?.plan.view().steps ?? [] };
  };
  return { dispatcher, desktop, respond, audit, pane };
}

describe('screenshot input', () => {
  it.each([
    [{}, 'target'],
    [{ target: 'desktop' }, 'target'],
    [{ target: 'window' }, 'window_id'],
    [{ target: 'region', x: 0, y: 0, width: 10 }, '"height"'],
    [{ target: 'region', x: -5, y: 0, width: 10, height: 10 }, 'x'],
    [{ target: 'screen', screen: 1.5 }, 'screen'],
  ])('refuses %j, saying what is wrong', (input, named) => {
    const proposed = screenshotTool.propose(input);
    expect(proposed.ok).toBe(false);
    if (!proposed.ok) expect(proposed.refusal).toContain(named);
  });

  it('accepts each target kind and describes the step', () => {
    const commands = [
      { target: 'pane' },
      { target: 'window', window_id: '0x2a00007' },
      { target: 'screen', screen: 1 },
      { target: 'region', x: 10, y: 20, width: 300, height: 200 },
    ].map((input) => {
      const proposed = screenshotTool.propose(input);
      return proposed.ok ? proposed.step.command : proposed.refusal;
    });
    expect(commands).toEqual(['screenshot pane', 'screenshot window 0x2a00007', 'screenshot screen 1', 'screenshot region 300×200 at 10,20']);
  });
});

describe('looks at the screen as plan steps', () => {
  it('asks once per conversation and kind of target: the second screen capture runs unasked, a window asks, a new conversation asks again', async () => {
    const { dispatcher, desktop, respond } = setup();
    const first = await respond([{ name: 'screenshot', input: { target: 'screen' } }], 'approve');
    expect(first.asked).toEqual(['screenshot screen']);
    expect(first.steps[0]).toMatchObject({ kind: 'screenshot', status: 'done' });
    const second = await respond([{ name: 'screenshot', input: { target: 'screen' } }]);
    expect(second.asked).toEqual([]);
    expect(second.steps[0]?.decider?.by).toBe('grant');
    const window = await respond([{ name: 'screenshot', input: { target: 'window', window_id: '0x1' } }], 'approve');
    expect(window.asked).toEqual(['screenshot window 0x1']);
    dispatcher.reset();
    const again = await respond([{ name: 'screenshot', input: { target: 'screen' } }], 'approve');
    expect(again.asked).toEqual(['screenshot screen']);
    expect(desktop.captures.map((target) => target.kind)).toEqual(['screen', 'screen', 'window', 'screen']);
  });

  it('a denied screenshot captures nothing and the model is told', async () => {
    const { desktop, respond } = setup();
    const { results } = await respond([{ name: 'screenshot', input: { target: 'screen' } }], 'deny');
    expect(desktop.captures).toEqual([]);
    expect(results[0]).toMatchObject({ is_error: true, content: expect.stringContaining('denied') });
  });

  it('"Allow for this session" covers later conversations too', async () => {
    const { dispatcher, respond } = setup();
    await respond([{ name: 'list_windows', input: {} }], 'allow-session');
    dispatcher.reset();
    expect((await respond([{ name: 'list_windows', input: {} }])).asked).toEqual([]);
  });

  it('honours [approval.vision] screenshot: "deny" never captures, "allow" never asks', async () => {
    writeFileSync(join(paths.configDir, 'policy.toml'), '[approval.vision]\nscreenshot = "deny"\n');
    const denied = setup();
    const { results, steps } = await denied.respond([{ name: 'screenshot', input: { target: 'screen' } }]);
    expect(denied.desktop.captures).toEqual([]);
    expect(steps[0]?.status).toBe('denied');
    expect(results[0]).toMatchObject({ is_error: true, content: expect.stringContaining('[approval.vision] screenshot = "deny"') });

    writeFileSync(join(paths.configDir, 'policy.toml'), '[approval.vision]\nscreenshot = "allow"\n');
    const allowed = setup();
    const shot = await allowed.respond([{ name: 'screenshot', input: { target: 'window', window_id: '0x9' } }]);
    expect(shot.asked).toEqual([]);
    expect(allowed.desktop.captures).toHaveLength(1);
  });

  it('sends the image as a PNG image part of the tool result, with the scale in text, and keeps it for the card', async () => {
    const { dispatcher, respond } = setup();
    const { results, steps } = await respond([{ name: 'screenshot', input: { target: 'screen' } }], 'approve');
    const content = (results[0] as { content: ToolResultPart[] }).content;
    expect(content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('1280×720 image of 1920×1080 screen pixels at 0,0 (scale 0.6667)') });
    const image = content[1];
    expect(image?.type).toBe('image');
    if (image?.type !== 'image') return;
    expect(image.source.media_type).toBe('image/png');
    expect(pngSize(image.source.data)).toEqual({ width: 1280, height: 720 });
    expect(steps[0]?.screenshot).toMatchObject({ width: 1280, height: 720 });
    // The view carries an id; the image itself is fetched once (agent.image), exactly as sent.
    expect(JSON.stringify(steps)).not.toContain(image.source.data.slice(0, 100));
    expect(dispatcher.image(steps[0]!.screenshot!.id)).toBe(`data:image/png;base64,${image.source.data}`);
    dispatcher.reset();
    expect(() => dispatcher.image(steps[0]!.screenshot!.id)).toThrow('no longer kept');
  });

  it('an excluded window is refused as a target; the window list only counts it (no id, title or class)', async () => {
    const { desktop, respond } = setup();
    const refused = await respond([{ name: 'screenshot', input: { target: 'window', window_id: '0xbad' } }], 'approve');
    expect(refused.results[0]).toMatchObject({ is_error: true, content: expect.stringContaining('excluded by the privacy list') });
    const geometry = { x: 0, y: 0, width: 400, height: 300 };
    desktop.windows = [
      { id: '0xbad', title: 'bank - KeePassXC', application: 'KeePassXC', instance: 'keepassxc', geometry, frame: geometry, focused: false, visible: true, screen: 0, excluded: true },
      { id: '0x2', title: 'Build failed', application: 'Xmessage', instance: 'xmessage', pid: 42, geometry, frame: geometry, focused: true, visible: true, screen: 0, excluded: false },
    ];
    const { results } = await respond([{ name: 'list_windows', input: {} }], 'approve');
    const text = String((results[0] as { content: unknown }).content);
    expect(text).toContain('0x2  "Build failed"  Xmessage pid 42  400×300 at 0,0  screen 0  (focused)');
    expect(text).toContain('(1 more window is on the privacy list: not listed, never captured or acted on.)');
    expect(text).not.toMatch(/0xbad|bank|KeePassXC|keepassxc/);
  });

  it('read_screen_text gives the text and each word with its box in the screenshot space; a screenshot of that kind of target approved it already', async () => {
    const { respond } = setup();
    await respond([{ name: 'screenshot', input: { target: 'window', window_id: '0x2' } }], 'approve');
    const { results, asked, steps } = await respond([{ name: 'read_screen_text', input: { target: 'window', window_id: '0x2' } }]);
    expect(asked).toEqual([]);
    expect(steps[0]).toMatchObject({ kind: 'screen-text', command: 'read_screen_text window 0x2', status: 'done' });
    const text = String((results[0] as { content: unknown }).content);
    expect(text).toContain("Text read (OCR, Tesseract) from window 'Build failed' (0x2): 300×100 image of 300×100 screen pixels at 700,500 (not scaled)");
    expect(text).toContain('Text:\nBuild failed\nCancel');
    expect(text).toContain('Build [10,10,40,12]  failed [55,10,44,12]\nCancel [120,70,48,14]');
    expect(readScreenTextTool.propose({ target: 'window' })).toMatchObject({ ok: false, refusal: expect.stringContaining('window_id') });
  });

  it('where the desktop is not available, a look is refused before anyone is asked and the model hears why; a pane still works', async () => {
    const { desktop, pane, respond } = setup();
    desktop.availabilityNow = { available: false, reason: 'Wayland without X (no DISPLAY, no XWayland)' };
    const refused = await respond([{ name: 'screenshot', input: { target: 'screen' } }]);
    expect(refused.asked).toEqual([]);
    expect(refused.results[0]).toMatchObject({ is_error: true, content: expect.stringContaining('not available on this system (Wayland without X') });
    expect(desktop.captures).toEqual([]);
    Object.assign(pane, { screenText: async () => 'prompt $' });
    const text = await respond([{ name: 'screenshot', input: { target: 'pane' } }], 'approve');
    expect(String((text.results[0] as { content: unknown }).content)).toContain('prompt $');
  });

  it('without Tesseract, read_screen_text asked for anyway is refused before anyone is asked, saying what to install; a screenshot still works', async () => {
    const { desktop, respond } = setup();
    desktop.availabilityNow = { available: true, implementation: 'stand-in', screenInput: true, lacking: { ocr: 'reading text on screen needs Tesseract: install the tesseract-ocr and tesseract-ocr-eng packages' } };
    const refused = await respond([{ name: 'read_screen_text', input: { target: 'screen' } }]);
    expect(refused.asked).toEqual([]);
    expect(refused.results[0]).toMatchObject({ is_error: true, content: expect.stringContaining('not available on this system (reading text on screen needs Tesseract: install the tesseract-ocr') });
    expect(desktop.captures).toEqual([]);
    const shot = await respond([{ name: 'screenshot', input: { target: 'screen' } }], 'approve');
    expect(shot.steps[0]).toMatchObject({ status: 'done' });
  });

  it('a pane is sent as its exact screen text; without an image of it (browser mode) the model is told why', async () => {
    const { pane, respond } = setup();
    Object.assign(pane, { screenText: async () => 'top - 10:00:00 up 1 day\nPID USER' });
    const { results, steps } = await respond([{ name: 'screenshot', input: { target: 'pane' } }], 'approve');
    const content = String((results[0] as { content: unknown }).content);
    expect(content).toContain('top - 10:00:00 up 1 day\nPID USER');
    expect(content).toContain('no image: Tandem\'s own window and its panes are captured through Electron, in the desktop app; a page in a browser (browser mode) cannot capture itself');
    expect(steps[0]?.screenshot).toBeUndefined();
  });
});

describe('images on the wire and in the budget', () => {
  const data = encodePng({ width: 1280, height: 720, data: Buffer.alloc(1280 * 720 * 4) }).toString('base64');
  const history: AgentMessage[] = [
    { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'screenshot', input: { target: 'screen' } }] },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'Screenshot of screen 0' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data } }] },
        { type: 'text', text: 'and now?' },
      ],
    },
  ];

  it('OpenAI-compatible: the tool message carries the text, a user message after it the image as an image_url part', () => {
    const messages = toChatMessages('system', history);
    expect(messages.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 't1', content: 'Screenshot of screen 0' },
      {
        role: 'user',
        content: [
          { type: 'text', text: '[The image of tool call t1:]' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${data}` } },
          { type: 'text', text: 'and now?' },
        ],
      },
    ]);
  });

  it('an image counts width×height/750 tokens, not its base64 length', () => {
    const withoutImage = estimateMessagesTokens([{ ...history[1]!, content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'Screenshot of screen 0' }] }, { type: 'text', text: 'and now?' }] }]);
    const withImage = estimateMessagesTokens([history[1]!]);
    expect(withImage - withoutImage).toBeGreaterThanOrEqual(1229);
    expect(withImage - withoutImage).toBeLessThan(1229 + 40);
  });
});

describe('[approval.vision] exclude', () => {
  const window = (title: string) => ({ title, application: 'App', instance: 'app' });

  it('replaces the built-in list, is read again when the file changes, and a broken file keeps the built-in list in', () => {
    const exclusion = new WindowExclusion(() => gate.visionExclusions(DEFAULT_EXCLUDED_WINDOWS));
    expect(exclusion.excludes(window('KeePassXC'))).toBe(true);
    expect(exclusion.excludes(window('My Bank - Firefox'))).toBe(false);
    writeFileSync(join(paths.configDir, 'policy.toml'), '[approval.vision]\nexclude = ["*Bank*", "Signal"]\n');
    expect(exclusion.excludes(window('My Bank - Firefox'))).toBe(true);
    expect(exclusion.excludes(window('KeePassXC'))).toBe(false);
    expect(gate.visionExclusions(DEFAULT_EXCLUDED_WINDOWS)).toBe(gate.visionExclusions(DEFAULT_EXCLUDED_WINDOWS));
    writeFileSync(join(paths.configDir, 'policy.toml'), '[approval.vision]\nexclude = "not a list"\n');
    expect(exclusion.excludes(window('KeePassXC'))).toBe(true);
  });
});

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PlanStepView } from '../../../src/shared/agent';
import { WindowExclusion } from '../../../src/main/desktop/privacy/windowExclusion';
import { X11Desktop } from '../../../src/main/desktop/x11/x11Desktop';
import { latest, planIdOf, toolResults, waitForIdleWithAnswer, waitForStep } from '../../support/agentConversation';
import { useAgentEngine } from '../../support/agentEngine';
import type { EngineClient } from '../../support/engineClient';
import { eventually, missingDesktopPrograms, startXvfb, type XvfbDisplay } from '../../support/desktop/xvfbDisplay';
import type { RecordedRequest, ScriptedReply } from '../../support/modelServer';

// UI actions of the agent on a real X server (Xvfb 1920×1080): the model reads the dialog's
// text, clicks the OCR box of "Cancel" (a point in the 1280×720 screenshot space of the screen),
// and the click is a plan step whose card names the button and the window. Typing into a
// terminal is RED; `[approval.ui] allow_apps` lets an application be clicked without asking.

const missing = missingDesktopPrograms();
const open = useAgentEngine();

const DIALOG_ARGS = ['-fn', 'fixed', '-geometry', '+700+500', '-title', 'Build failed', '-buttons', 'Retry:3,Cancel:4', 'Build failed'];

/** The centre of a word's box in the OCR result the model received. */
function boxCentre(result: string, word: string): { x: number; y: number } {
  const match = new RegExp(`${word} \\[(\\d+),(\\d+),(\\d+),(\\d+)\\]`).exec(result);
  if (!match) throw new Error(`no box for ${word} in:\n${result}`);
  const [x, y, width, height] = match.slice(1).map(Number) as [number, number, number, number];
  return { x: Math.round(x + width / 2), y: Math.round(y + height / 2) };
}

/** After the OCR of the screen comes back, the model clicks the centre of "Cancel" in it. */
function clickCancelAfterReading(extra: Record<string, unknown> = {}) {
  return (request: RecordedRequest): ScriptedReply => {
    const result = toolResults(request).map((part) => String(part.content)).join('\n');
    if (!result.includes('Words with boxes')) return { parts: [{ text: 'All done.' }] };
    const { x, y } = boxCentre(result, 'Cancel');
    return { parts: [{ toolUse: { id: 'c1', name: 'ui_action', input: { action: 'click', x, y, target: 'screen', purpose: 'close the dialog', ...extra } } }] };
  };
}

async function decide(client: EngineClient, step: PlanStepView, action: 'approve' | 'deny'): Promise<void> {
  await client.request('agent.step', { planId: planIdOf(client), stepId: step.id, action });
}

function waitForExit(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code))));
}

describe.skipIf(missing.length > 0)(`the agent acts on the screen under Xvfb${missing.length > 0 ? ` (skipped: ${missing.join(', ')} not installed)` : ''}`, () => {
  let xvfb: XvfbDisplay;
  let desktop: X11Desktop;
  const children: ChildProcess[] = [];

  async function showDialog(): Promise<ChildProcess> {
    const dialog = spawn('xmessage', DIALOG_ARGS, { env: { ...process.env, DISPLAY: xvfb.display }, stdio: 'ignore' });
    children.push(dialog);
    await eventually(async () => (await desktop.listWindows()).find((window) => window.title === 'Build failed' && window.visible), 'the build-failed dialog');
    return dialog;
  }

  beforeAll(async () => {
    xvfb = await startXvfb(1920, 1080);
    desktop = new X11Desktop(xvfb.display, new WindowExclusion());
  });

  afterEach(async () => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill();
  });

  afterAll(async () => {
    await xvfb?.stop();
  });

  it('a click on the OCR box of Cancel asks, names the button and the window, marks the screenshot; approved, xmessage exits 4', async () => {
    const dialog = await showDialog();
    const { client, model, paneId, home } = await open({ env: { DISPLAY: xvfb.display } });
    model.script({ parts: [{ toolUse: { id: 's1', name: 'screenshot', input: { target: 'screen' } } }, { toolUse: { id: 'r1', name: 'read_screen_text', input: { target: 'screen' } } }] });
    model.respond(clickCancelAfterReading());
    await client.request('agent.send', { text: '# close the build-failed dialog', attachments: [], paneId });
    const shot = await waitForStep(client, (step) => step.index === 1 && step.approval?.decision === 'ask', 'the screenshot asking');
    await decide(client, shot, 'approve');

    const click = await waitForStep(client, (step) => step.kind === 'ui' && step.approval !== undefined, 'the click judged');
    expect(click.ui?.action).toBe('click');
    expect(click.ui?.description).toMatch(/^click at \d+,\d+ on 'Cancel' in window 'Build failed' \(Xmessage\)$/);
    expect(click.command).toMatch(/^ui_action click \d+,\d+$/);
    expect(click.originalCommand).toBeUndefined();
    expect(click.approval).toMatchObject({ decision: 'ask', decidedBy: 'default', blocked: false });
    expect(click.risk?.level).toBe('yellow');
    // The crop marks the point on the screenshot the model saw (the first plan's image).
    const plans = latest(client)!.items.flatMap((item) => (item.role === 'plan' ? [item.plan] : []));
    const first = plans[0]!.steps[0]!.screenshot!;
    expect(click.ui?.target).toMatchObject({ screenshotId: first.id, width: 1280, height: 720 });
    expect(dialog.exitCode).toBeNull();

    await decide(client, click, 'approve');
    expect(await waitForExit(dialog)).toBe(4);
    await waitForIdleWithAnswer(client, 'All done.');
    const [result] = toolResults(await model.waitForRequest(3));
    expect(result!.content).toMatch(/^Done: click at \d+,\d+ on 'Cancel' in window 'Build failed' \(Xmessage\) \(screen pixel \d+,\d+\)/);

    // The audit is appended off the step's path (after the echo, for typed steps): wait for the line.
    const executed = /"event":"executed"[^\n]*"command":"click at \d+,\d+ on 'Cancel' in window 'Build failed' \(Xmessage\)"/;
    const auditFile = join(home, '.local/share/tandem/audit.jsonl');
    await eventually(async () => (executed.test(readFileSync(auditFile, 'utf8')) ? true : undefined), 'the executed click in the audit log');
  });

  it('denied, nothing is clicked and the model is told', async () => {
    const dialog = await showDialog();
    const { client, model, paneId } = await open({ env: { DISPLAY: xvfb.display } });
    model.script({ parts: [{ toolUse: { id: 'r1', name: 'read_screen_text', input: { target: 'screen' } } }] });
    model.respond(clickCancelAfterReading());
    await client.request('agent.send', { text: 'close the dialog', attachments: [], paneId });
    await decide(client, await waitForStep(client, (step) => step.index === 1 && step.approval?.decision === 'ask', 'the OCR asking'), 'approve');
    const click = await waitForStep(client, (step) => step.kind === 'ui' && step.approval?.decision === 'ask', 'the click asking');
    await decide(client, click, 'deny');
    await waitForIdleWithAnswer(client, 'All done.');
    const [result] = toolResults(await model.waitForRequest(3));
    expect(result).toMatchObject({ is_error: true, content: expect.stringContaining('denied') });
    expect(dialog.exitCode).toBeNull();
    expect((await desktop.listWindows()).some((window) => window.title === 'Build failed')).toBe(true);
  });

  it('[approval.ui] allow_apps lets the click run without asking', async () => {
    const dialog = await showDialog();
    const { client, model, paneId } = await open({ env: { DISPLAY: xvfb.display }, systemPolicyToml: '[approval.vision]\nscreenshot = "allow"\n[approval.ui]\nallow_apps = ["Xmessage"]\n' });
    model.script({ parts: [{ toolUse: { id: 'r1', name: 'read_screen_text', input: { target: 'screen' } } }] });
    model.respond(clickCancelAfterReading());
    await client.request('agent.send', { text: 'close the dialog', attachments: [], paneId });
    expect(await waitForExit(dialog)).toBe(4);
    const click = await waitForStep(client, (step) => step.kind === 'ui' && step.status === 'done', 'the click done');
    expect(click.decider).toMatchObject({ verdict: 'allowed', by: 'policy' });
    expect(click.decider?.rule).toContain('allow_apps');
  });

  it('Allow for session covers later clicks in that application, but not in an !auto run: there only the policy lets a UI action run unasked', async () => {
    const { client, model, paneId } = await open({ env: { DISPLAY: xvfb.display }, systemPolicyToml: '[approval.vision]\nscreenshot = "allow"\n' });
    const readThenClick = () => {
      model.reset();
      model.script({ parts: [{ toolUse: { id: 'r1', name: 'read_screen_text', input: { target: 'screen' } } }] });
      model.respond(clickCancelAfterReading());
    };
    const lastClick = () => waitForStep(client, (step) => step.kind === 'ui' && step.approval !== undefined, 'the click judged');

    let dialog = await showDialog();
    readThenClick();
    await client.request('agent.send', { text: 'close the dialog', attachments: [], paneId });
    const first = await lastClick();
    expect(first.approval).toMatchObject({ decision: 'ask', grantable: true, shape: 'ui actions in Xmessage' });
    await client.request('agent.step', { planId: planIdOf(client), stepId: first.id, action: 'allow-session' });
    expect(await waitForExit(dialog)).toBe(4);
    await waitForIdleWithAnswer(client, 'All done.');

    dialog = await showDialog();
    readThenClick();
    await client.request('agent.send', { text: 'again', attachments: [], paneId });
    expect(await waitForExit(dialog)).toBe(4);
    expect((await waitForStep(client, (step) => step.kind === 'ui' && step.status === 'done', 'the granted click')).decider).toMatchObject({ by: 'grant' });
    await waitForIdleWithAnswer(client, 'All done.');

    dialog = await showDialog();
    readThenClick();
    await client.request('agent.auto', { paneId, task: 'close the build-failed dialog' });
    const auto = await waitForStep(client, (step) => step.kind === 'ui' && step.approval?.decision === 'ask', 'the auto run asking for its click');
    expect(auto.approval?.rule).toContain('auto mode');
    expect(dialog.exitCode).toBeNull();
    await decide(client, auto, 'approve');
    expect(await waitForExit(dialog)).toBe(4);
    // Tandem's summary of the run names what it did on screen, in words.
    const summary = await client.waitFor(
      () => latest(client)?.items.find((item) => item.role === 'summary'),
      15_000,
      'the auto run summary',
    );
    expect(summary.role === 'summary' && summary.summary.steps.filter((step) => step.kind === 'ui')).toEqual([
      expect.objectContaining({ status: 'done', command: expect.stringMatching(/^click at \d+,\d+ on 'Cancel' in window 'Build failed'/) }),
    ]);
  });

  it('typing into a terminal window is RED: blocked, and nothing is typed', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'tandem-ui-')), 'typed.txt');
    const xterm = spawn('xterm', ['-geometry', '80x10+100+100', '-title', 'cat-target', '-e', 'sh', '-c', `cat > ${file}`], { env: { ...process.env, DISPLAY: xvfb.display }, stdio: 'ignore' });
    children.push(xterm);
    const window = await eventually(async () => (await desktop.listWindows()).find((candidate) => candidate.title === 'cat-target' && candidate.visible), 'the xterm');
    await desktop.act({ kind: 'focus_window', windowId: window.id });
    const { client, model, paneId } = await open({ env: { DISPLAY: xvfb.display } });
    model.script({ parts: [{ toolUse: { id: 't1', name: 'ui_action', input: { action: 'type', text: 'rm -rf ~\n' } } }] }, { parts: [{ text: 'Understood.' }] });
    await client.request('agent.send', { text: 'type it', attachments: [], paneId });
    const typing = await waitForStep(client, (step) => step.kind === 'ui' && step.approval !== undefined, 'the typing judged');
    expect(typing.approval).toMatchObject({ blocked: true });
    expect(typing.risk?.level).toBe('red');
    expect(typing.ui?.description).toBe(`type "rm -rf ~\\n" into window 'cat-target' (XTerm)`);
    await expect(decide(client, typing, 'approve')).rejects.toThrow(/blocked/);
    await decide(client, typing, 'deny');
    await waitForIdleWithAnswer(client, 'Understood.');
    expect(existsSync(file) ? readFileSync(file, 'utf8') : '').toBe('');
  });

  it("Anthropic's computer-use tool: offered with the screen's scaled size instead of screenshot and ui_action; its screenshot and left_click are the same steps, the click lands on Cancel", async () => {
    const dialog = await showDialog();
    const { client, model, paneId } = await open({ env: { DISPLAY: xvfb.display } });
    model.script({ parts: [{ toolUse: { id: 's1', name: 'computer', input: { action: 'screenshot' } } }, { toolUse: { id: 'r1', name: 'read_screen_text', input: { target: 'screen' } } }] });
    model.respond((request) => {
      const result = toolResults(request).map((part) => (typeof part.content === 'string' ? part.content : JSON.stringify(part.content))).join('\n');
      if (!result.includes('Words with boxes')) return { parts: [{ text: 'Closed.' }] };
      const { x, y } = boxCentre(result, 'Cancel');
      return { parts: [{ toolUse: { id: 'c1', name: 'computer', input: { action: 'left_click', coordinate: [x, y] } } }] };
    });
    await client.request('agent.send', { text: '# close the build-failed dialog', attachments: [], paneId });

    const first = await model.waitForRequest(1);
    expect(first.headers['anthropic-beta']).toContain('computer-use-2025-01-24');
    const tools = first.body?.tools ?? [];
    expect(tools.find((tool) => tool.name === 'computer')).toEqual({ type: 'computer_20250124', name: 'computer', display_width_px: 1280, display_height_px: 720 });
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['list_windows', 'read_screen_text', 'run_command']));
    expect(names).not.toContain('screenshot');
    expect(names).not.toContain('ui_action');

    const shot = await waitForStep(client, (step) => step.index === 1 && step.approval?.decision === 'ask', 'the screenshot asking');
    expect(shot.kind).toBe('screenshot');
    await decide(client, shot, 'approve');
    const click = await waitForStep(client, (step) => step.kind === 'ui' && step.approval?.decision === 'ask', 'the click asking');
    expect(click.ui?.action).toBe('click');
    expect(click.ui?.description).toMatch(/^click at \d+,\d+ on 'Cancel' in window 'Build failed'/);
    expect(click.ui?.target).toMatchObject({ width: 1280, height: 720 });
    await decide(client, click, 'approve');
    expect(await waitForExit(dialog)).toBe(4);
    await waitForIdleWithAnswer(client, 'Closed.');
  });

  it("with the computer tool, read_screen_text of a window gives boxes in the tool's display: a left_click at the centre of Cancel's box lands on Cancel", async () => {
    const dialog = await showDialog();
    const window = (await desktop.listWindows()).find((candidate) => candidate.title === 'Build failed')!;
    const { client, model, paneId } = await open({ env: { DISPLAY: xvfb.display }, systemPolicyToml: '[approval.vision]\nscreenshot = "allow"\n' });
    model.script({ parts: [{ toolUse: { id: 'r1', name: 'read_screen_text', input: { target: 'window', window_id: window.id } } }] });
    model.respond((request) => {
      const result = toolResults(request).map((part) => String(part.content)).join('\n');
      if (!result.includes('Words with boxes')) return { parts: [{ text: 'Closed.' }] };
      const { x, y } = boxCentre(result, 'Cancel');
      return { parts: [{ toolUse: { id: 'c1', name: 'computer', input: { action: 'left_click', coordinate: [x, y] } } }] };
    });
    await client.request('agent.send', { text: '# close the build-failed dialog', attachments: [], paneId });
    const [read] = toolResults(await model.waitForRequest(2));
    expect(read!.content).toContain("Boxes are x,y,width,height in pixels of the computer tool's display (1280×720 image of 1920×1080 screen pixels at 0,0");
    // The box lies where the dialog is on the 1280×720 display, not at the top left of the window's own image.
    const { x, y } = boxCentre(read!.content, 'Cancel');
    expect(x).toBeGreaterThan(Math.floor(window.frame.x * (2 / 3)));
    expect(y).toBeGreaterThan(Math.floor(window.frame.y * (2 / 3)));

    const click = await waitForStep(client, (step) => step.kind === 'ui' && step.approval?.decision === 'ask', 'the click asking');
    expect(click.ui?.description).toMatch(/^click at \d+,\d+ on 'Cancel' in window 'Build failed'/);
    await decide(client, click, 'approve');
    expect(await waitForExit(dialog)).toBe(4);
    await waitForIdleWithAnswer(client, 'Closed.');
  });

  it('the generic tools stay when [ai] computer_use = "off", and on an OpenAI-compatible endpoint', async () => {
    for (const options of [{ configToml: '[ai]\ncomputer_use = "off"\n' }, { openAiCompatible: true }]) {
      const { client, model, paneId } = await open({ env: { DISPLAY: xvfb.display }, ...options });
      model.script({ parts: [{ text: 'Hello.' }] });
      await client.request('agent.send', { text: 'hi', attachments: [], paneId });
      await waitForIdleWithAnswer(client, 'Hello.');
      const request = await model.waitForRequest(1);
      const names = (request.body?.tools ?? []).map((tool) => tool.name ?? (tool.function as { name: string }).name);
      expect(names).toEqual(expect.arrayContaining(['screenshot', 'ui_action', 'list_windows', 'read_screen_text']));
      expect(names).not.toContain('computer');
      expect(request.headers['anthropic-beta'] ?? '').not.toContain('computer-use');
    }
  });

  it('a point before any screenshot is refused with what to do, and nothing asks', async () => {
    const { client, model, paneId } = await open({ env: { DISPLAY: xvfb.display } });
    model.script({ parts: [{ toolUse: { id: 'c1', name: 'ui_action', input: { action: 'click', x: 10, y: 10 } } }] }, { parts: [{ text: 'I will look first.' }] });
    await client.request('agent.send', { text: 'click', attachments: [], paneId });
    await waitForIdleWithAnswer(client, 'I will look first.');
    const [result] = toolResults(await model.waitForRequest(2));
    expect(result).toMatchObject({ is_error: true, content: expect.stringContaining('there is no screenshot of anything in this conversation yet') });
  });
});

import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { X11Desktop } from '../../../src/main/desktop/x11/x11Desktop';
import { WindowExclusion } from '../../../src/main/desktop/privacy/windowExclusion';
import type { EngineClient } from '../../support/engineClient';
import { planIdOf, toolResults, waitForIdleWithAnswer, waitForStep } from '../../support/agentConversation';
import { useAgentEngine } from '../../support/agentEngine';
import { decodePng } from '../../support/desktop/pngDecoding';
import { pathWithout } from '../../support/desktop/pathWithout';
import { eventually, missingDesktopPrograms, startXvfb, type XvfbDisplay } from '../../support/desktop/xvfbDisplay';
import type { RecordedRequest } from '../../support/modelServer';

// The agent looks at a real X server (Xvfb, 1920×1080) through the engine: list_windows and
// screenshot are plan steps the user approves; the image reaches the scripted model server as
// image content, in the Anthropic and the OpenAI-compatible wire formats.

const missing = missingDesktopPrograms();
const open = useAgentEngine();

type Part = { type: string; text?: string; source?: { media_type: string; data: string }; image_url?: { url: string } };

/** The user message of a request: its parts, tool results' parts flattened in. */
function lastUserParts(request: RecordedRequest): Part[] {
  const messages = request.body?.messages ?? [];
  return messages.filter((message) => message.role === 'user' || message.role === 'tool').slice(-3).flatMap((message) => {
    const content = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : (message.content as (Part & { content?: unknown })[]);
    return content.flatMap((part) => (part.type === 'tool_result' && Array.isArray(part.content) ? (part.content as Part[]) : [part]));
  });
}

async function approveNext(client: EngineClient, index: number, kind: string): Promise<void> {
  const step = await waitForStep(client, (candidate) => candidate.index === index && candidate.status === 'proposed' && candidate.approval?.decision === 'ask', `step ${index} asking`);
  expect(step.kind).toBe(kind);
  await client.request('agent.step', { planId: planIdOf(client), stepId: step.id, action: 'approve' });
}

describe.skipIf(missing.length > 0)(`the agent looks at the screen under Xvfb${missing.length > 0 ? ` (skipped: ${missing.join(', ')} not installed)` : ''}`, () => {
  let xvfb: XvfbDisplay;
  let dialog: ChildProcess;

  beforeAll(async () => {
    xvfb = await startXvfb(1920, 1080);
    dialog = spawn('xmessage', ['-fn', 'fixed', '-geometry', '+700+500', '-title', 'Build failed', '-buttons', 'Retry:3,Cancel:4', 'Build failed'], {
      env: { ...process.env, DISPLAY: xvfb.display },
      stdio: 'ignore',
    });
    const desktop = new X11Desktop(xvfb.display, new WindowExclusion());
    await eventually(async () => (await desktop.listWindows()).find((window) => window.title === 'Build failed'), 'the build-failed dialog');
  });

  afterAll(async () => {
    if (dialog?.exitCode === null) dialog.kill();
    await xvfb?.stop();
  });

  it('Anthropic: the window list names the dialog, and the screen reaches the model as a 1280×720 PNG image block in the tool result, scale stated', async () => {
    const { client, model, paneId } = await open({ env: { DISPLAY: xvfb.display } });
    model.script(
      { parts: [{ toolUse: { id: 'w1', name: 'list_windows', input: { purpose: 'find the dialog' } } }, { toolUse: { id: 's1', name: 'screenshot', input: { target: 'screen', purpose: 'see it' } } }] },
      { parts: [{ text: 'I see the dialog.' }] },
    );
    await client.request('agent.send', { text: 'close the build-failed dialog', attachments: [], paneId });
    await approveNext(client, 1, 'windows');
    await approveNext(client, 2, 'screenshot');
    const view = await waitForIdleWithAnswer(client, 'I see the dialog.');

    const sent = await model.waitForRequest(2);
    const messages = sent.body?.messages ?? [];
    const results = (messages.at(-1)?.content as { type: string; tool_use_id: string; content: unknown }[]).filter((part) => part.type === 'tool_result');
    expect(results.map((result) => result.tool_use_id)).toEqual(['w1', 's1']);
    expect(String(results[0]!.content)).toMatch(/0x[0-9a-f]+ {2}"Build failed" {2}Xmessage {2}\d+×\d+ at 700,500 {2}screen 0/);
    const [text, image] = results[1]!.content as Part[];
    expect(text).toMatchObject({ type: 'text', text: expect.stringContaining('1280×720 image of 1920×1080 screen pixels at 0,0 (scale 0.6667)') });
    expect(image).toMatchObject({ type: 'image', source: { type: 'base64', media_type: 'image/png' } });
    const png = decodePng(Buffer.from(image!.source!.data, 'base64'));
    expect([png.width, png.height]).toEqual([1280, 720]);

    // The panel's step holds exactly the image the model got.
    const plan = view.items.find((item) => item.role === 'plan');
    const shot = plan?.role === 'plan' ? plan.plan.steps[1]?.screenshot : undefined;
    expect(shot).toMatchObject({ width: 1280, height: 720 });
    expect(await client.request('agent.image', { id: shot!.id })).toEqual({ src: `data:image/png;base64,${image!.source!.data}` });
  });

  it('read_screen_text of the dialog window: its text and the box of Cancel, in the space of the window\'s screenshot', async () => {
    const desktop = new X11Desktop(xvfb.display, new WindowExclusion());
    const window = (await desktop.listWindows()).find((candidate) => candidate.title === 'Build failed')!;
    const { client, model, paneId } = await open({ env: { DISPLAY: xvfb.display }, configToml: '[ai]\ncomputer_use = "off"\n' });
    model.script({ parts: [{ toolUse: { id: 'r1', name: 'read_screen_text', input: { target: 'window', window_id: window.id } } }] }, { parts: [{ text: 'Read it.' }] });
    await client.request('agent.send', { text: 'what does the dialog say?', attachments: [], paneId });
    await approveNext(client, 1, 'screen-text');
    const view = await waitForIdleWithAnswer(client, 'Read it.');
    // The card names the window by its title and class, not only by the id the model gave.
    const plan = view.items.find((item) => item.role === 'plan');
    const step = plan?.role === 'plan' ? plan.plan.steps[0] : undefined;
    expect(step?.command).toBe(`read_screen_text window ${window.id}`);
    expect(step?.detail).toMatch(new RegExp(`^\\d+ words read from window 'Build failed' \\(Xmessage, ${window.id}\\)$`));
    const sent = await model.waitForRequest(2);
    const result = String((sent.body?.messages?.at(-1)?.content as { content: unknown }[])[0]!.content);
    expect(result).toContain(`${window.geometry.width}×${window.geometry.height} image`);
    expect(result).toMatch(/Text:\n(.|\n)*Build failed/);
    const [, x, y, width, height] = /Cancel \[(\d+),(\d+),(\d+),(\d+)\]/.exec(result) ?? [];
    expect(Number(width)).toBeGreaterThan(0);
    // The box lies inside the window's image.
    expect(Number(x) + Number(width)).toBeLessThanOrEqual(window.geometry.width);
    expect(Number(y) + Number(height)).toBeLessThanOrEqual(window.geometry.height);
  });

  it('every request carries the screen tools; with neither xdotool nor Tesseract on PATH, no ui_action and no read_screen_text, and a click says what is missing', async () => {
    const { client, model, paneId } = await open({ env: { DISPLAY: xvfb.display }, configToml: '[ai]\ncomputer_use = "off"\n' });
    model.script({ parts: [{ text: 'Hello.' }] });
    await client.request('agent.send', { text: 'hi', attachments: [], paneId });
    await waitForIdleWithAnswer(client, 'Hello.');
    expect(offeredTools(await model.waitForRequest(1))).toEqual(expect.arrayContaining(['screenshot', 'read_screen_text', 'list_windows', 'ui_action']));

    const lacking = pathWithout(['xdotool', 'tesseract']);
    try {
      const partial = await open({ env: { DISPLAY: xvfb.display, PATH: lacking.path } });
      partial.model.script({ parts: [{ toolUse: { id: 'c1', name: 'ui_action', input: { action: 'click', x: 10, y: 10 } } }] }, { parts: [{ text: 'Cannot click.' }] });
      await partial.client.request('agent.send', { text: 'click', attachments: [], paneId: partial.paneId });
      await waitForIdleWithAnswer(partial.client, 'Cannot click.');
      const first = await partial.model.waitForRequest(1);
      const tools = offeredTools(first);
      expect(tools).toEqual(expect.arrayContaining(['screenshot', 'list_windows']));
      expect(tools).not.toContain('ui_action');
      expect(tools).not.toContain('read_screen_text');
      // Without input the computer tool is not offered either: screenshot stays.
      expect(tools).not.toContain('computer');
      const [result] = toolResults(await partial.model.waitForRequest(2));
      expect(result).toMatchObject({ is_error: true, content: expect.stringContaining('need xdotool: install the xdotool package') });
    } finally {
      lacking.remove();
    }
  });

  it('OpenAI-compatible: the image follows the tool message as an image_url part of a user message', async () => {
    const { client, model, paneId } = await open({ openAiCompatible: true, env: { DISPLAY: xvfb.display } });
    model.script({ parts: [{ toolUse: { id: 's1', name: 'screenshot', input: { target: 'screen' } } }] }, { parts: [{ text: 'Seen.' }] });
    await client.request('agent.send', { text: 'look', attachments: [], paneId });
    await approveNext(client, 1, 'screenshot');
    await waitForIdleWithAnswer(client, 'Seen.');
    const sent = await model.waitForRequest(2);
    const messages = sent.body?.messages ?? [];
    const toolMessage = messages.find((message) => message.role === 'tool') as { content: string } | undefined;
    expect(toolMessage?.content).toContain('(scale 0.6667)');
    const url = lastUserParts(sent).find((part) => part.type === 'image_url')?.image_url?.url ?? '';
    expect(url.startsWith('data:image/png;base64,')).toBe(true);
    const png = decodePng(Buffer.from(url.slice('data:image/png;base64,'.length), 'base64'));
    expect([png.width, png.height]).toEqual([1280, 720]);
    // The user message with the image comes after the tool message.
    expect(messages.findIndex((message) => message.role === 'tool')).toBeLessThan(messages.length - 1);
  });
});

const SCREEN_TOOLS = ['screenshot', 'read_screen_text', 'list_windows', 'ui_action', 'computer'];

function offeredTools(request: RecordedRequest): string[] {
  return (request.body?.tools ?? []).map((tool) => tool.name ?? (tool.function as { name: string }).name);
}

describe('without a display', () => {
  it('no request carries a screen tool, on either backend', async () => {
    for (const options of [{}, { openAiCompatible: true }]) {
      const { client, model, paneId } = await open({ env: { DISPLAY: '', WAYLAND_DISPLAY: '' }, ...options });
      model.script({ parts: [{ text: 'Hello.' }] });
      await client.request('agent.send', { text: 'hi', attachments: [], paneId });
      await waitForIdleWithAnswer(client, 'Hello.');
      const tools = offeredTools(await model.waitForRequest(1));
      expect(tools).toContain('run_command');
      expect(tools.filter((name) => SCREEN_TOOLS.includes(name))).toEqual([]);
    }
  });

  it('a click asked for anyway is refused saying there is no display, not "take a screenshot first"', async () => {
    const { client, model, paneId } = await open({ env: { DISPLAY: '', WAYLAND_DISPLAY: '' } });
    model.script({ parts: [{ toolUse: { id: 'c1', name: 'ui_action', input: { action: 'click', x: 10, y: 10 } } }] }, { parts: [{ text: 'No screen.' }] });
    await client.request('agent.send', { text: 'click', attachments: [], paneId });
    await waitForIdleWithAnswer(client, 'No screen.');
    const [result] = toolResults(await model.waitForRequest(2));
    expect(result).toMatchObject({ is_error: true, content: expect.stringContaining('not available on this system: no graphical display (DISPLAY is not set)') });
    expect(result!.content).not.toMatch(/no screenshot|take one|take a screenshot/i);
  });

  it('a screenshot is refused before anyone is asked, and the model is told why', async () => {
    const { client, model, paneId } = await open({ env: { DISPLAY: '', WAYLAND_DISPLAY: '' } });
    model.script({ parts: [{ toolUse: { id: 's1', name: 'screenshot', input: { target: 'screen' } } }] }, { parts: [{ text: 'No screen here.' }] });
    await client.request('agent.send', { text: 'look', attachments: [], paneId });
    await waitForIdleWithAnswer(client, 'No screen here.');
    const sent = await model.waitForRequest(2);
    const [result] = sent.body?.messages?.at(-1)?.content as { content: string; is_error?: boolean }[];
    expect(result).toMatchObject({ is_error: true, content: expect.stringContaining('no graphical display (DISPLAY is not set)') });
  });
});

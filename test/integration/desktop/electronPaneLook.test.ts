import { describe, expect, it } from 'vitest';
import { planIdOf, waitForIdleWithAnswer, waitForStep } from '../../support/agentConversation';
import { useAgentEngine } from '../../support/agentEngine';
import { standInElectron } from '../../support/desktop/electronStandIn';
import { decodePng } from '../../support/desktop/pngDecoding';
import type { EngineClient } from '../../support/engineClient';
import type { RecordedRequest } from '../../support/modelServer';

// A screenshot of a pane as the desktop app takes it: the engine is given Electron's window
// (a stand-in at the edge: Electron cannot run here) as the Electron entry gives it, a real
// bash pane, the real SDK against the scripted model server. The model gets the pane's image
// and its exact text from the engine's mirror.

const open = useAgentEngine();

type Part = { type: string; text?: string; source?: { media_type: string; data: string } };

function screenshotResult(request: RecordedRequest): Part[] | string {
  const result = (request.body?.messages?.at(-1)?.content as { type: string; content: Part[] | string }[]).find((part) => part.type === 'tool_result');
  return result!.content;
}

async function screenshotOfThePane(client: EngineClient, model: { script(...replies: unknown[]): void }, paneId: number): Promise<void> {
  client.type(paneId, 'echo pane-marker-$((6*7))\r');
  await client.waitForBlock(paneId, 'echo pane-marker-$((6*7))');
  model.script({ parts: [{ toolUse: { id: 'p1', name: 'screenshot', input: { target: 'pane', purpose: 'see the pane' } } }] }, { parts: [{ text: 'Seen.' }] });
  await client.request('agent.send', { text: 'look at my pane', attachments: [], paneId });
  const step = await waitForStep(client, (candidate) => candidate.status === 'proposed' && candidate.approval?.decision === 'ask', 'the screenshot step asking');
  expect(step.kind).toBe('screenshot');
  await client.request('agent.step', { planId: planIdOf(client), stepId: step.id, action: 'approve' });
}

describe('a pane screenshot in the desktop app', () => {
  it("sends the pane's image, captured where the page draws it, and its exact text; the card shows that image", async () => {
    const electron = standInElectron(1200, 800, 2);
    const { client, model, paneId } = await open({ env: { DISPLAY: '', WAYLAND_DISPLAY: '' }, electron });
    electron.current!.page.panes.set(paneId, { x: 0, y: 30, width: 900, height: 770 });
    await screenshotOfThePane(client, model, paneId);
    const view = await waitForIdleWithAnswer(client, 'Seen.');

    expect(electron.current!.captured).toEqual([{ x: 0, y: 30, width: 900, height: 770 }]);
    const parts = screenshotResult(await model.waitForRequest(2)) as Part[];
    expect(parts.map((part) => part.type)).toEqual(['text', 'image', 'text']);
    expect(parts[0]!.text).toContain(`Screenshot of pane ${paneId} in Tandem's window (900×770 at 0,30 of its content): 900×770 image`);
    const png = decodePng(Buffer.from(parts[1]!.source!.data, 'base64'));
    expect([png.width, png.height]).toEqual([900, 770]);
    expect(parts[2]!.text).toMatch(/^The same pane as text \(exact, from the terminal's own state\):\n(.|\n)*pane-marker-42/);

    const plan = view.items.find((item) => item.role === 'plan');
    const shot = plan?.role === 'plan' ? plan.plan.steps[0]?.screenshot : undefined;
    expect(shot).toMatchObject({ width: 900, height: 770 });
    expect(await client.request('agent.image', { id: shot!.id })).toEqual({ src: `data:image/png;base64,${parts[1]!.source!.data}` });
  });

  it("with Tandem's window closed, the pane's text still goes and the model is told why there is no image", async () => {
    const electron = standInElectron(1200, 800, 2);
    const { client, model, paneId } = await open({ env: { DISPLAY: '', WAYLAND_DISPLAY: '' }, electron });
    electron.current = undefined;
    await screenshotOfThePane(client, model, paneId);
    await waitForIdleWithAnswer(client, 'Seen.');
    const content = screenshotResult(await model.waitForRequest(2));
    expect(typeof content).toBe('string');
    expect(content).toContain(`The screen of pane ${paneId} as text (exact, from the terminal's own state; no image: Tandem's window is not open`);
    expect(content).toContain('pane-marker-42');
  });
});

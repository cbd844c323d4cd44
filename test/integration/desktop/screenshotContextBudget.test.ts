import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScreenshotView } from '../../../src/shared/screenSteps';
import { LEFT_OUT_IMAGE } from '../../../src/main/agent/vision/recentImages';
import { planIdOf, waitForIdleWithAnswer, waitForStep } from '../../support/agentConversation';
import { useAgentEngine } from '../../support/agentEngine';
import { missingDesktopPrograms, startXvfb, type XvfbDisplay } from '../../support/desktop/xvfbDisplay';
import type { RecordedRequest } from '../../support/modelServer';

// Five screenshots of a real X screen in one conversation: the request after the fifth carries
// only the newest three images (the two older ones become a note after their text), "What was
// sent" shows that request, and the panel still has all five images.

const missing = missingDesktopPrograms();
const open = useAgentEngine();

type Part = { type: string; text?: string; source?: { data: string } };

/** Each tool result of the request, in order: its parts as text, or "image" for an image. */
function resultParts(request: RecordedRequest | { messages?: { content: unknown }[] } | undefined): { id: string; parts: string[] }[] {
  const messages = (request && 'body' in request ? request.body?.messages : request?.messages) ?? [];
  return messages.flatMap((message) =>
    Array.isArray(message.content)
      ? (message.content as { type: string; tool_use_id: string; content: unknown }[])
          .filter((part) => part.type === 'tool_result' && Array.isArray(part.content))
          .map((part) => ({ id: part.tool_use_id, parts: (part.content as Part[]).map((inner) => (inner.type === 'image' ? 'image' : inner.text ?? '')) }))
      : [],
  );
}

describe.skipIf(missing.length > 0)(`screenshots in a long conversation under Xvfb${missing.length > 0 ? ` (skipped: ${missing.join(', ')} not installed)` : ''}`, () => {
  let xvfb: XvfbDisplay;

  beforeAll(async () => {
    xvfb = await startXvfb(1920, 1080);
  });

  afterAll(async () => {
    await xvfb?.stop();
  });

  it('the request after the 5th screenshot carries only the newest 3 images; the panel keeps all 5', async () => {
    const { client, model, paneId } = await open({ env: { DISPLAY: xvfb.display } });
    const shots = [1, 2, 3, 4, 5].map((n) => ({ parts: [{ toolUse: { id: `s${n}`, name: 'screenshot', input: { target: 'screen', purpose: `look ${n}` } } }] }));
    model.script(...shots, { parts: [{ text: 'Watched it five times.' }] });
    await client.request('agent.send', { text: 'watch the screen', attachments: [], paneId });
    // The first screen capture of the conversation asks; the later ones run unasked.
    const first = await waitForStep(client, (step) => step.index === 1 && step.status === 'proposed' && step.approval?.decision === 'ask', 'the first screenshot asking');
    await client.request('agent.step', { planId: planIdOf(client), stepId: first.id, action: 'approve' });
    const view = await waitForIdleWithAnswer(client, 'Watched it five times.');

    // The 4th screenshot's request still carries all four images (no cut yet: the cached prefix stays).
    const fourth = resultParts(await model.waitForRequest(5));
    expect(fourth.map((result) => result.parts[1])).toEqual(['image', 'image', 'image', 'image']);
    const fifth = await model.waitForRequest(6);
    const sent = resultParts(fifth);
    expect(sent.map((result) => result.id)).toEqual(['s1', 's2', 's3', 's4', 's5']);
    expect(sent.map((result) => result.parts[1])).toEqual([LEFT_OUT_IMAGE, LEFT_OUT_IMAGE, 'image', 'image', 'image']);
    // What the screenshots showed stays, for the ones left out too.
    for (const result of sent) expect(result.parts[0]).toContain('Screenshot of screen 0');

    // "What was sent" for the answer is that request, exactly.
    const answer = view.items.findLast((item) => item.role === 'assistant');
    const { payload } = await client.request('agent.sent', { itemId: answer!.id });
    expect(resultParts(JSON.parse(payload))).toEqual(sent);

    // The panel shows every screenshot, each image still fetchable.
    const screenshots = view.items.flatMap((item) => (item.role === 'plan' ? item.plan.steps.flatMap((step) => (step.screenshot ? [step.screenshot] : [])) : [])) as ScreenshotView[];
    expect(screenshots).toHaveLength(5);
    for (const shot of screenshots) expect((await client.request('agent.image', { id: shot.id })).src).toMatch(/^data:image\/png;base64,/);
  });
});

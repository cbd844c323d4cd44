import { spawn, type ChildProcess } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { decodePng } from '../test/support/desktop/pngDecoding';
import { missingDesktopPrograms, startXvfb, type XvfbDisplay } from '../test/support/desktop/xvfbDisplay';
import { sendFromPanel, toolResults, useAgentTandem } from './support/aiPanel';

// The agent looks at the screen in the real UI: a private Xvfb (1920×1080) with xmessage's
// build-failed dialog, `tandem web` on that display, real Chromium, a scripted model. The
// screenshot step asks, its image shows in the panel exactly as the server received it.

const ai = useAgentTandem();
const missing = missingDesktopPrograms();

test.describe('screenshots in the panel', () => {
  test.skip(missing.length > 0, `needs ${missing.join(', ')} (.ci/run installs them)`);
  let xvfb: XvfbDisplay;
  let dialog: ChildProcess;

  test.beforeAll(async () => {
    xvfb = await startXvfb(1920, 1080);
    dialog = spawn('xmessage', ['-fn', 'fixed', '-geometry', '+700+500', '-title', 'Build failed', '-buttons', 'Retry:3,Cancel:4', 'Build failed'], {
      env: { ...process.env, DISPLAY: xvfb.display },
      stdio: 'ignore',
    });
  });

  test.afterAll(async () => {
    if (dialog?.exitCode === null) dialog.kill();
    await xvfb?.stop();
  });

  test('# close the build-failed dialog: the screenshot step asks, the image reaches the server as image content and shows in the panel and in What was sent', async ({ page }) => {
    const { panel } = await ai.start(page, undefined, { DISPLAY: xvfb.display });
    ai.model.script(
      { parts: [{ text: 'Let me look.' }, { toolUse: { id: 's1', name: 'screenshot', input: { target: 'screen', purpose: 'find the dialog' } } }] },
      { parts: [{ text: 'I see the Build failed dialog.' }] },
    );
    await sendFromPanel(page, 'close the build-failed dialog');
    const step = panel.locator('[data-testid="plan-step"][data-kind="screenshot"]');
    await expect(step).toHaveAttribute('data-decision', 'ask');
    await expect(step.locator('[data-action="edit"]')).toHaveCount(0);
    await step.locator('[data-action="approve"]').click();
    const answer = panel.locator('[data-testid="ai-message"][data-role="assistant"]').last();
    await expect(answer).toContainText('I see the Build failed dialog.');
    await expect(step).toHaveAttribute('data-status', 'done');

    const [result] = toolResults(await ai.model.waitForRequest(2)) as unknown as { content: { type: string; text?: string; source?: { data: string } }[] }[];
    const image = result!.content.find((part) => part.type === 'image');
    const png = decodePng(Buffer.from(image!.source!.data, 'base64'));
    expect([png.width, png.height]).toEqual([1280, 720]);

    const thumbnail = step.getByTestId('screenshot');
    await expect(thumbnail).toHaveAttribute('data-width', '1280');
    await expect(thumbnail.locator('img')).toHaveAttribute('src', `data:image/png;base64,${image!.source!.data}`);
    const small = await thumbnail.boundingBox();
    expect(small!.height).toBeLessThanOrEqual(122);
    await thumbnail.click();
    await expect(thumbnail).toHaveAttribute('aria-expanded', 'true');
    expect((await thumbnail.boundingBox())!.height).toBeGreaterThan(small!.height * 2);
    await thumbnail.click();
    await expect(thumbnail).toHaveAttribute('aria-expanded', 'false');

    await answer.getByTestId('what-was-sent').click();
    const sent = page.getByTestId('sent-payload');
    await expect(sent.getByTestId('sent-payload-readable')).toContainText('1280×720 image of 1920×1080 screen pixels');
    await expect(sent.getByTestId('screenshot').locator('img')).toHaveAttribute('src', `data:image/png;base64,${image!.source!.data}`);
    await expect(sent.getByTestId('sent-payload-readable')).not.toContainText(image!.source!.data.slice(0, 40));
  });

  test('a denied screenshot captures nothing and the model is told', async ({ page }) => {
    const { panel } = await ai.start(page, undefined, { DISPLAY: xvfb.display });
    ai.model.script({ parts: [{ toolUse: { id: 's1', name: 'screenshot', input: { target: 'screen' } } }] }, { parts: [{ text: 'Understood.' }] });
    await sendFromPanel(page, 'look at my screen');
    const step = panel.locator('[data-testid="plan-step"][data-kind="screenshot"]');
    await step.locator('[data-action="deny"]').click();
    await expect(panel.locator('[data-testid="ai-message"][data-role="assistant"]').last()).toContainText('Understood.');
    const [result] = toolResults(await ai.model.waitForRequest(2));
    expect(result).toMatchObject({ is_error: true, content: expect.stringContaining('denied') });
    await expect(step.getByTestId('screenshot')).toHaveCount(0);
  });
});

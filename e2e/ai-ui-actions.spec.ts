import { spawn, type ChildProcess } from 'node:child_process';
import { expect, test } from '@playwright/test';
import type { RecordedRequest, ScriptedReply } from '../test/support/modelServer';
import { missingDesktopPrograms, startXvfb, type XvfbDisplay } from '../test/support/desktop/xvfbDisplay';
import { sendFromPanel, toolResults, useAgentTandem } from './support/aiPanel';

// The agent clicks in another application in the real UI: a private Xvfb (1920×1080) with
// xmessage's build-failed dialog, `tandem web` on that display, real Chromium, a scripted
// model. The click is a plan step whose card says what it does and marks where, on the
// screenshot the model saw; nothing is clicked until it is approved.

const ai = useAgentTandem();
const missing = missingDesktopPrograms();

/** Once the OCR of the screen is back, the model clicks the middle of "Cancel" in it, with `click(x, y)`. */
function clickCancel(click: (x: number, y: number) => ScriptedReply, after: string) {
  return (request: RecordedRequest): ScriptedReply => {
    const text = toolResults(request)
      .map((part) => (typeof part.content === 'string' ? part.content : JSON.stringify(part.content)))
      .join('\n');
    const box = /Cancel \[(\d+),(\d+),(\d+),(\d+)\]/.exec(text);
    if (!box) return { parts: [{ text: after }] };
    const [x, y, width, height] = box.slice(1).map(Number) as [number, number, number, number];
    return click(Math.round(x + width / 2), Math.round(y + height / 2));
  };
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code))));
}

test.describe('UI actions in the panel', () => {
  test.skip(missing.length > 0, `needs ${missing.join(', ')} (.ci/run installs them)`);
  let xvfb: XvfbDisplay;
  let dialog: ChildProcess;

  test.beforeAll(async () => {
    xvfb = await startXvfb(1920, 1080);
  });

  test.beforeEach(() => {
    dialog = spawn('xmessage', ['-fn', 'fixed', '-geometry', '+700+500', '-title', 'Build failed', '-buttons', 'Retry:3,Cancel:4', 'Build failed'], {
      env: { ...process.env, DISPLAY: xvfb.display },
      stdio: 'ignore',
    });
  });

  test.afterEach(() => {
    if (dialog.exitCode === null) dialog.kill();
  });

  test.afterAll(async () => {
    await xvfb?.stop();
  });

  test('# close the build-failed dialog: screenshot, then a click on Cancel whose card marks it on the screenshot; approved, the dialog exits 4', async ({ page }) => {
    const { panel } = await ai.start(page, undefined, { DISPLAY: xvfb.display });
    // Claude with a display: the computer-use tool, whose left_click is the generic "click".
    ai.model.script({ parts: [{ text: 'Let me look.' }, { toolUse: { id: 's1', name: 'computer', input: { action: 'screenshot' } } }, { toolUse: { id: 'r1', name: 'read_screen_text', input: { target: 'screen' } } }] });
    ai.model.respond(clickCancel((x, y) => ({ parts: [{ toolUse: { id: 'c1', name: 'computer', input: { action: 'left_click', coordinate: [x, y] } } }] }), 'The dialog is closed.'));
    await sendFromPanel(page, '# close the build-failed dialog');

    const shot = panel.locator('[data-testid="plan-step"][data-kind="screenshot"]');
    await shot.locator('[data-action="approve"]').click();
    await expect(shot).toHaveAttribute('data-status', 'done');
    const first = await ai.model.waitForRequest(1);
    expect((first.body?.tools ?? []).map((tool) => tool.name)).toContain('computer');

    const click = panel.locator('[data-testid="plan-step"][data-kind="ui"]');
    await expect(click).toHaveAttribute('data-ui-action', 'click');
    await expect(click).toHaveAttribute('data-decision', 'ask');
    await expect(click.getByTestId('ui-description')).toHaveText(/^click at \d+,\d+ on 'Cancel' in window 'Build failed' \(Xmessage\)$/);
    // The crop is of the very image the model was sent, with the point marked.
    const sentImage = await shot.getByTestId('screenshot').locator('img').getAttribute('src');
    const crop = click.getByTestId('ui-target-crop');
    await expect(crop.locator('img')).toHaveAttribute('src', sentImage!);
    await expect(click.getByTestId('ui-target-marker')).toHaveCount(1);
    const marker = (await click.getByTestId('ui-target-marker').boundingBox())!;
    const frame = (await crop.boundingBox())!;
    expect(marker.x + marker.width / 2).toBeGreaterThan(frame.x);
    expect(marker.x + marker.width / 2).toBeLessThan(frame.x + frame.width);
    await expect(click.locator('[data-action="edit"]')).toHaveCount(0);
    expect(dialog.exitCode).toBeNull();

    await click.locator('[data-action="approve"]').click();
    expect(await exitOf(dialog)).toBe(4);
    await expect(click).toHaveAttribute('data-status', 'done');
    await expect(panel.locator('[data-testid="ai-message"][data-role="assistant"]').last()).toContainText('The dialog is closed.');
  });

  test('deny: nothing is clicked and the model is told', async ({ page }) => {
    const { panel } = await ai.start(page, undefined, { DISPLAY: xvfb.display });
    ai.model.script({ parts: [{ toolUse: { id: 'r1', name: 'read_screen_text', input: { target: 'screen' } } }] });
    ai.model.respond(clickCancel((x, y) => ({ parts: [{ toolUse: { id: 'c1', name: 'ui_action', input: { action: 'click', x, y, target: 'screen', purpose: 'close it' } } }] }), 'Understood, I left it.'));
    await sendFromPanel(page, 'close the build-failed dialog');
    await panel.locator('[data-testid="plan-step"][data-kind="screen-text"] [data-action="approve"]').click();
    const click = panel.locator('[data-testid="plan-step"][data-kind="ui"]');
    await expect(click).toHaveAttribute('data-decision', 'ask');
    await click.locator('[data-action="deny"]').click();
    await expect(panel.locator('[data-testid="ai-message"][data-role="assistant"]').last()).toContainText('Understood, I left it.');
    await expect(click).toHaveAttribute('data-status', 'denied');
    const [result] = toolResults(await ai.model.waitForRequest(3));
    expect(result).toMatchObject({ is_error: true, content: expect.stringContaining('denied') });
    expect(dialog.exitCode).toBeNull();
  });
});

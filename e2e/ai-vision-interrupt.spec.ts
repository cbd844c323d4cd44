import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { missingDesktopPrograms, startXvfb, type XvfbDisplay } from '../test/support/desktop/xvfbDisplay';
import { sendFromPanel, toolResults, useAgentTandem } from './support/aiPanel';

// Esc in the panel while the agent reads the whole screen (OCR, seconds of Tesseract) ends
// the look at once in the real UI: the card says "interrupted", Tesseract is gone, the model
// is told. A private Xvfb with a window full of text, `tandem web` on it, real Chromium.

const ai = useAgentTandem();
const missing = missingDesktopPrograms();

/** Tesseract processes working for this test's X display (they inherit its DISPLAY). */
function tesseractsOn(display: string): number {
  let count = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'tesseract') continue;
      if (readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`DISPLAY=${display}`)) count++;
    } catch {
      // Gone meanwhile, or another user's.
    }
  }
  return count;
}

test.describe('stopping a look in the panel', () => {
  test.skip(missing.length > 0, `needs ${missing.join(', ')} (.ci/run installs them)`);
  let xvfb: XvfbDisplay;
  let page: ChildProcess;
  let dir: string;

  test.beforeAll(async () => {
    xvfb = await startXvfb(1920, 1080);
    dir = mkdtempSync(join(tmpdir(), 'tandem-e2e-ocr-'));
    const words = ['build', 'failed', 'retry', 'cancel', 'installer', 'package', 'version', 'network', 'timeout', 'error'];
    const text = Array.from({ length: 60 }, (_, line) => Array.from({ length: 12 }, (_, n) => words[(line * 7 + n * 3) % words.length]).join(' ')).join('\n');
    writeFileSync(join(dir, 'page.txt'), text);
    page = spawn('xmessage', ['-geometry', '+40+40', '-title', 'Release notes', '-file', join(dir, 'page.txt')], { env: { ...process.env, DISPLAY: xvfb.display }, stdio: 'ignore' });
  });

  test.afterAll(async () => {
    if (page?.exitCode === null) page.kill();
    await xvfb?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('Esc while the whole screen is read: the step ends "interrupted" at once, Tesseract is killed, the model is told', async ({ page: browser }) => {
    const { panel } = await ai.start(browser, undefined, { DISPLAY: xvfb.display });
    ai.model.script({ parts: [{ toolUse: { id: 'r1', name: 'read_screen_text', input: { target: 'screen', purpose: 'read everything' } } }] }, { parts: [{ text: 'Stopped reading.' }] });
    await sendFromPanel(browser, 'read the whole screen');
    const step = panel.locator('[data-testid="plan-step"][data-kind="screen-text"]');
    await step.locator('[data-action="approve"]').click();
    await expect(step).toHaveAttribute('data-status', 'running');
    await expect.poll(() => tesseractsOn(xvfb.display), { timeout: 30_000 }).toBeGreaterThan(0);

    await panel.getByTestId('ai-input').press('Escape');
    // An OCR left to finish would end "done"; how soon it ends is measured in test/integration/desktop/lookInterrupt.
    await expect(step).toHaveAttribute('data-status', 'failed');
    await expect(step.locator('.plan-step__detail')).toHaveText('interrupted');
    await expect.poll(() => tesseractsOn(xvfb.display)).toBe(0);
    await expect(panel.locator('[data-testid="ai-message"][data-role="assistant"]').last()).toContainText('Stopped reading.');
    const [result] = toolResults(await ai.model.waitForRequest(2));
    expect(result).toMatchObject({ tool_use_id: 'r1', is_error: true, content: expect.stringContaining('the user stopped it before it finished') });
  });
});

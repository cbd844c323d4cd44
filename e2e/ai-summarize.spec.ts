import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page, type Locator } from '@playwright/test';
import { useAgentTandem } from './support/aiPanel';
import { runCommand } from './support/terminalPage';

// "Summarize output" from a block's menu, end to end: real Chromium, `tandem web`, a real
// bash, the real Anthropic SDK in the engine talking to a scripted model server on loopback.

const ai = useAgentTandem();

/** A test-run-like output of 81 lines: long enough to be summarised. */
const LONG_COMMAND = 'for i in $(seq 1 80); do echo " PASS  src/m$i.test.ts"; done; echo "Tests:       1 failed, 79 passed, 80 total"';

async function summarizeFromMenu(block: Locator): Promise<void> {
  await block.locator('.block__gutter').hover();
  await block.getByTestId('block-menu').locator('[data-action="summarize"]').click();
}

const configPathOf = (home: string) => join(home, '.config/tandem/config.toml');

const summaryItem = (page: Page) => page.getByTestId('ai-panel').locator('[data-testid="ai-message"][data-role="block-summary"]');

test('Summarize output: the panel opens with the small model’s summary of that block, and the keys stay in the terminal', async ({ page }) => {
  const { pane, panel } = await ai.start(page);
  const block = await runCommand(page, pane, LONG_COMMAND);
  ai.model.script('1 of 80 tests failed; 79 passed.');
  await summarizeFromMenu(block);

  await expect(panel).toBeVisible();
  const item = summaryItem(page);
  await expect(item).toHaveAttribute('data-state', 'done');
  await expect(item).toHaveAttribute('data-source', 'model');
  await expect(item).toHaveAttribute('data-block-id', (await block.getAttribute('data-block-id'))!);
  await expect(item).toContainText('Summary of');
  await expect(item).toContainText('seq 1 80');
  await expect(item.getByTestId('summary-source')).toContainText('summary by claude-haiku-4-5 · 81 lines · test results');
  await expect(item).toContainText('1 of 80 tests failed; 79 passed.');
  const request = await ai.model.waitForRequest(1);
  expect(request.body?.model).toBe('claude-haiku-4-5');
  await expect(panel.getByTestId('ai-input')).not.toBeFocused();
  await expect(page.locator('.xterm-helper-textarea').first()).toBeFocused();
});

test('Summarize output with no model connected shows local filtering and says why; short output is shown as is; the palette has it too', async ({ page }) => {
  const { pane } = await ai.tandem.start(page);
  const block = await runCommand(page, pane, LONG_COMMAND);
  await summarizeFromMenu(block);
  const item = summaryItem(page);
  await expect(item).toHaveAttribute('data-source', 'local');
  await expect(item.getByTestId('summary-source')).toContainText('local fallback (no model summary) · 81 lines · test results · no model is connected');
  await expect(item).toContainText('81 lines; kept the first 5');
  await expect(item).toContainText('Tests:       1 failed, 79 passed, 80 total');

  const short = await runCommand(page, pane, 'printf "one\\ntwo\\n"');
  await summarizeFromMenu(short);
  const asIs = summaryItem(page).last();
  await expect(asIs).toHaveAttribute('data-source', 'as-is');
  await expect(asIs.getByTestId('summary-source')).toContainText('shown as is · 2 lines · shorter than 50 lines');
  await expect(asIs.locator('pre')).toHaveText('one\ntwo');

  // From the command palette: the last command's output.
  await runCommand(page, pane, 'seq 1 60');
  await page.keyboard.press('Control+Shift+P');
  await page.getByTestId('command-palette').locator('[data-action-id="block.summarize"]').click();
  const fromPalette = summaryItem(page).last();
  await expect(fromPalette).toContainText('$ seq 1 60');
  await expect(fromPalette.getByTestId('summary-source')).toContainText('local fallback (no model summary) · 60 lines');
});

test('the small model named in Settings → AI is saved as [ai] small_model and makes the next summary', async ({ page }) => {
  const { pane, panel, server } = await ai.start(page);
  await page.getByTestId('open-settings').click();
  const dialog = page.getByTestId('settings-dialog');
  await expect(dialog.locator('input[name="aiSmallModel"]')).toHaveAttribute('placeholder', 'claude-haiku-4-5');
  await dialog.locator('input[name="aiSmallModel"]').fill('claude-3-5-haiku');
  await page.getByTestId('settings-save').click();
  await expect(dialog).toBeHidden();
  await expect.poll(() => readFileSync(configPathOf(server.home), 'utf8')).toMatch(/^small_model\s*=\s*"claude-3-5-haiku"$/m);

  const block = await runCommand(page, pane, LONG_COMMAND);
  ai.model.script('All but one passed.');
  await summarizeFromMenu(block);
  await expect(summaryItem(page).getByTestId('summary-source')).toContainText('summary by claude-3-5-haiku');
  expect((await ai.model.waitForRequest(1)).body?.model).toBe('claude-3-5-haiku');
  await expect(panel).toBeVisible();
});

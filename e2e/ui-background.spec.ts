import { expect, test } from '@playwright/test';
import { bufferText, runCommand } from './support/terminalPage';
import { useTandem, waitForPrompt } from './support/uiPage';

const tandem = useTandem();

test('output that arrives while its tab is in the background is all there when you come back', async ({ page }) => {
  const { pane, paneId } = await tandem.start(page);
  await pane.click();
  await page.keyboard.type('sleep 1; seq 1 3000; echo background-$((40+2))');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Control+Shift+T');
  await expect(page.getByTestId('pane')).toHaveCount(2);
  const other = page.locator('[data-testid="pane"]:visible').first();
  await waitForPrompt(other);
  await runCommand(page, other, 'echo in-the-front-tab');
  await page.keyboard.press('Control+PageUp');
  await expect(pane).toBeVisible();
  await expect(pane.locator('[data-testid="block"][data-command^="sleep 1; seq"]')).toHaveAttribute('data-exit-code', '0');
  await expect.poll(() => bufferText(page, paneId)).toContain('background-42');
  const lines = (await bufferText(page, paneId)).split('\n').filter((line) => /^\d+$/.test(line)).map(Number);
  expect(lines.length).toBe(3000);
  expect(lines.every((value, index) => value === index + 1)).toBe(true);
});

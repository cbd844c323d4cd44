import { expect, test } from '@playwright/test';
import { bufferText, runCommand, waitForBuffer } from './support/terminalPage';
import { useTandem } from './support/uiPage';

const tandem = useTandem();

test('status bar shows the shell, the cwd after cd, and integration on', async ({ page }) => {
  const { pane } = await tandem.start(page);
  await expect(page.getByTestId('status-shell')).toHaveText('bash');
  const integration = page.getByTestId('status-integration');
  await expect(integration).toHaveAttribute('data-integration', 'on');
  await expect(integration).toHaveText('integration on');

  await runCommand(page, pane, 'cd /tmp');
  await expect(page.getByTestId('status-cwd')).toHaveText('/tmp');
  await runCommand(page, pane, 'cd /usr/share');
  await expect(page.getByTestId('status-cwd')).toHaveText('/usr/share');
  await expect(page.getByTestId('status-state')).toHaveAttribute('data-state', 'PROMPT');

  // The home directory and what lies under it read as ~, the full path stays in the tooltip.
  const home = tandem.server().home;
  await runCommand(page, pane, 'mkdir -p ~/projects/tandem && cd ~/projects/tandem');
  await expect(page.getByTestId('status-cwd')).toHaveText('~/projects/tandem');
  await expect(page.getByTestId('status-cwd')).toHaveAttribute('title', `${home}/projects/tandem`);
  await runCommand(page, pane, 'cd');
  await expect(page.getByTestId('status-cwd')).toHaveText('~');
});

test('status bar says integration off for a shell without integration (dash)', async ({ page }) => {
  const { pane, paneId } = await tandem.start(page, { shell: '/bin/dash', prompt: false });
  await expect(pane).toHaveAttribute('data-shell', 'dash');
  await expect(page.getByTestId('status-shell')).toHaveText('dash');
  const integration = page.getByTestId('status-integration');
  await expect(integration).toHaveAttribute('data-integration', 'off');
  await expect(integration).toHaveText(/integration off/);
  await expect(pane).toHaveAttribute('data-integration', 'off');
  // Without integration the AI prefix at the prompt is `##`, and the status bar says so.
  await expect(page.getByTestId('ai-prefix')).toHaveAttribute('data-prefix', '##');

  // The shell still works, and a single `#` line stays a comment for it.
  await pane.click();
  await page.keyboard.type('echo dash-$((2+3))');
  await page.keyboard.press('Enter');
  await expect.poll(() => bufferText(page, paneId)).toMatch(/^dash-5$/m);
  await page.keyboard.type('# just a comment');
  await page.keyboard.press('Enter');
  await page.keyboard.type('echo after-comment');
  await page.keyboard.press('Enter');
  await expect.poll(() => bufferText(page, paneId)).toMatch(/^after-comment$/m);
  await expect(page.getByTestId('ai-panel')).toBeHidden();
  // `## ` is the instruction prefix here: the panel opens with it.
  await expect(pane).toHaveAttribute('data-state', 'PROMPT');
  await page.keyboard.type('## what shell is this');
  await page.keyboard.press('Enter');
  const panel = page.getByTestId('ai-panel');
  await expect(panel).toBeVisible();
  await expect(panel.locator('[data-testid="ai-message"][data-role="user"]')).toContainText('what shell is this');
  // Its Enter never reached dash: the next command's block follows the earlier ones, with
  // none for the instruction in between.
  await pane.click();
  await page.keyboard.type('echo after-instruction');
  await page.keyboard.press('Enter');
  await waitForBuffer(page, paneId, /^after-instruction$/m);
  const commands = () => pane.locator('[data-testid="block"]').evaluateAll((blocks) => blocks.map((block) => block.getAttribute('data-command')));
  await expect.poll(async () => (await commands()).at(-1)).toBe('echo after-instruction');
  expect((await commands()).filter((command) => command?.includes('what shell is this'))).toEqual([]);
});

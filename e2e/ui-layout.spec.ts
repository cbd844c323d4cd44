import { expect, test } from '@playwright/test';
import { runCommand, terminalSize, waitForBuffer } from './support/terminalPage';
import { blockRowTexts, useTandem } from './support/uiPage';

const tandem = useTandem();

test('closing a split collapses it; closing the last pane of a tab closes the tab', async ({ page }) => {
  const { pane, paneId } = await tandem.start(page);
  const panes = page.getByTestId('pane');
  const tabs = page.getByTestId('tab');
  await runCommand(page, pane, 'true');

  await page.keyboard.press('Control+Shift+D');
  await expect(panes).toHaveCount(2);
  await expect(page.getByTestId('split')).toHaveCount(1);
  await expect(page.getByTestId('split')).toHaveAttribute('data-direction', 'row');
  const second = page.locator(`[data-testid="pane"]:not([data-pane-id="${paneId}"])`);
  await expect(second).toHaveAttribute('data-focused', 'true');

  // Close the new (focused) pane: the split collapses and the first pane has the focus.
  await page.keyboard.press('Control+Shift+W');
  await expect(panes).toHaveCount(1);
  await expect(page.getByTestId('split')).toHaveCount(0);
  await expect(page.getByTestId('divider')).toHaveCount(0);
  await expect(pane).toHaveAttribute('data-focused', 'true');
  await expect(page.locator('.xterm-helper-textarea').first()).toBeFocused();
  await expect(tabs).toHaveCount(1);
  await runCommand(page, pane, 'echo still-here');

  // A second tab; closing its only pane closes the tab and the first tab comes back.
  await page.keyboard.press('Control+Shift+T');
  await expect(tabs).toHaveCount(2);
  await expect(tabs.nth(1)).toHaveAttribute('data-active', 'true');
  const newTabPane = page.locator('[data-testid="pane"]:visible');
  await expect(newTabPane).toHaveCount(1);
  await expect(newTabPane).not.toHaveAttribute('data-pane-id', paneId);
  await page.keyboard.press('Control+Shift+W');
  await expect(tabs).toHaveCount(1);
  await expect(tabs.first()).toHaveAttribute('data-active', 'true');
  await expect(panes).toHaveCount(1);
  await expect(pane).toBeVisible();

  // With the mouse: a split down, then the tab's close button closes both panes.
  await page.keyboard.press('Control+Shift+E');
  await expect(panes).toHaveCount(2);
  await expect(page.getByTestId('split')).toHaveAttribute('data-direction', 'column');
  await page.getByTestId('new-tab').click();
  await expect(tabs).toHaveCount(2);
  await tabs.first().getByRole('button', { name: /close tab/i }).click();
  await expect(tabs).toHaveCount(1);
  await expect(panes).toHaveCount(1);
  await expect(page.locator(`[data-pane-id="${paneId}"]`)).toHaveCount(0);
});

test('the command palette lists actions and runs the chosen one', async ({ page }) => {
  const { pane } = await tandem.start(page);
  await runCommand(page, pane, 'true');

  await page.keyboard.press('Control+Shift+P');
  const palette = page.getByTestId('command-palette');
  await expect(palette).toBeVisible();
  await expect(page.getByTestId('palette-input')).toBeFocused();
  const items = palette.getByTestId('palette-item');
  expect(await items.count()).toBeGreaterThan(15);
  for (const id of ['tab.new', 'pane.splitRight', 'terminal.find', 'view.zoomIn', 'theme.light', 'settings.open', 'block.rerun']) {
    await expect(palette.locator(`[data-action-id="${id}"]`)).toHaveCount(1);
  }
  // Hidden actions (the palette itself) are not listed; shortcuts are shown.
  await expect(palette.locator('[data-action-id="palette.show"]')).toHaveCount(0);
  await expect(palette.locator('[data-action-id="pane.splitRight"] kbd')).toHaveText('Ctrl+Shift+D');

  await page.keyboard.type('split right');
  await expect(items.first()).toHaveAttribute('data-action-id', 'pane.splitRight');
  await page.keyboard.press('Enter');
  await expect(palette).toHaveCount(0);
  await expect(page.getByTestId('pane')).toHaveCount(2);
  await expect(page.getByTestId('split')).toHaveAttribute('data-direction', 'row');

  // Opened right after the split: the new pane's terminal, opening late, must not take the
  // focus away from the palette. Escape closes it without running anything.
  await page.keyboard.press('Control+Shift+P');
  await expect(palette).toBeVisible();
  await expect(page.locator('[data-testid="pane"] .xterm')).toHaveCount(2);
  await expect(page.getByTestId('palette-input')).toBeFocused();
  await page.keyboard.type('new tab');
  await expect(page.getByTestId('palette-input')).toHaveValue('new tab');
  await page.keyboard.press('Escape');
  await expect(palette).toHaveCount(0);
  await expect(page.getByTestId('tab')).toHaveCount(1);
  const focused = page.locator('[data-testid="pane"][data-focused="true"]');
  await runCommand(page, focused, 'echo after-palette');
});

test('an exited shell keeps its scrollback, and Enter restarts it in the same pane', async ({ page }) => {
  const { pane } = await tandem.start(page);
  await runCommand(page, pane, 'echo before-exit');
  await page.keyboard.type('exit 3');
  await page.keyboard.press('Enter');
  await expect(pane).toHaveAttribute('data-exited', 'true');
  await expect(page.getByTestId('pane-exit')).toBeVisible();
  await expect(page.getByTestId('status-state')).toHaveAttribute('data-state', 'EXITED');
  await expect(page.getByTestId('status-state')).toHaveText('exited (3)');

  await page.keyboard.press('Enter');
  const restarted = page.getByTestId('pane');
  await expect(restarted).toHaveCount(1);
  await expect(restarted).not.toHaveAttribute('data-exited', 'true');
  await expect(page.getByTestId('pane-exit')).toHaveCount(0);
  await runCommand(page, restarted, 'echo after-restart');
  const paneId = (await restarted.getAttribute('data-pane-id'))!;
  const text = await waitForBuffer(page, paneId, /^after-restart$/m);
  expect(text).toMatch(/^before-exit$/m);
});

test('block marks stay on their rows after a split narrows a pane and a wrapped command re-wraps', async ({ page }) => {
  const { pane, paneId } = await tandem.start(page);
  const { cols } = await terminalSize(page, paneId);
  // Long enough to wrap once at full width, and over more rows once the pane is half as wide.
  const word = 'w'.repeat(Math.floor(cols * 0.8));
  const command = `echo ${word}-end`;
  const wrapped = await runCommand(page, pane, command);
  const after = await runCommand(page, pane, 'echo after-wrap');
  await waitForBuffer(page, paneId, /^after-wrap\n[^\n]*[#$%>] *$/m);
  const rowsOf = async (block: typeof wrapped) => (await blockRowTexts(page, paneId, block)).join('\n');
  const expectRows = async () => {
    await expect.poll(async () => (await rowsOf(wrapped)).replace(/\n/g, '')).toMatch(new RegExp(`[#$%>] ${command}${word}-end$`));
    await expect.poll(() => rowsOf(after)).toMatch(/[#$%>] echo after-wrap\nafter-wrap$/);
  };
  await expectRows();

  await page.keyboard.press('Control+Shift+D');
  await expect(page.getByTestId('pane')).toHaveCount(2);
  await expect.poll(async () => (await terminalSize(page, paneId)).cols).toBeLessThan(cols * 0.6);
  await expectRows();
  // The command now takes more rows than before, and the mark covers all of them.
  expect((await blockRowTexts(page, paneId, wrapped)).length).toBeGreaterThanOrEqual(4);
});

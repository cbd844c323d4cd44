import { expect, test } from '@playwright/test';
import { runCommand, waitForBuffer } from './support/terminalPage';
import { allowClipboard, probeTerminal, readClipboardText, useTandem } from './support/uiPage';

// The pane's context menu: right-click, the keyboard, and what each item does. A program that
// reads the mouse keeps the right button; Shift+right-click opens the menu over it.

const tandem = useTandem();

test('right-click opens the pane menu: select all, copy, private mode with its check, Esc gives the shell its keys back', async ({ page }) => {
  const { server, pane, paneId } = await tandem.start(page);
  await allowClipboard(page, server.origin);
  await runCommand(page, pane, 'echo menu-copy-marker');
  await waitForBuffer(page, paneId, /^menu-copy-marker$/m);

  const menu = page.getByTestId('pane-menu');
  await pane.click({ button: 'right' });
  await expect(menu).toBeVisible();
  // Nothing is selected yet: Copy waits for a selection.
  await expect(menu.locator('[data-action="terminal.copy"]')).toBeDisabled();
  await menu.locator('[data-action="terminal.selectAll"]').click();
  await expect(menu).toHaveCount(0);
  await expect.poll(async () => (await probeTerminal(page, paneId)).selection).toContain('menu-copy-marker');

  await pane.click({ button: 'right' });
  await expect(menu.locator('[data-action="terminal.copy"]')).toBeEnabled();
  await menu.locator('[data-action="terminal.copy"]').click();
  await expect.poll(() => readClipboardText(page)).toContain('menu-copy-marker');

  await pane.click({ button: 'right' });
  const privateItem = menu.locator('[data-action="pane.privateMode"]');
  await expect(privateItem).toHaveAttribute('aria-checked', 'false');
  await privateItem.click();
  await expect(pane.getByTestId('pane-private')).toBeVisible();
  await pane.click({ button: 'right' });
  await expect(privateItem).toHaveAttribute('aria-checked', 'true');
  // The keyboard walks the items; Esc closes and the next keys reach the shell.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await page.keyboard.type('echo after-menu-$((6*7))');
  await page.keyboard.press('Enter');
  await waitForBuffer(page, paneId, /^after-menu-42$/m);
});

test('Shift+F10 opens the menu at the pane; its split item splits; a click elsewhere closes it', async ({ page }) => {
  const { pane } = await tandem.start(page);
  await pane.click();
  await page.keyboard.press('Shift+F10');
  const menu = page.getByTestId('pane-menu');
  await expect(menu).toBeVisible();
  await expect(menu.locator('[data-action="pane.splitRight"]')).toContainText(/Ctrl\+Shift\+D|⌘D/);
  await menu.locator('[data-action="pane.splitRight"]').click();
  await expect(page.getByTestId('pane')).toHaveCount(2);

  await page.getByTestId('pane').first().click({ button: 'right' });
  await expect(menu).toBeVisible();
  await page.getByTestId('pane').last().click();
  await expect(menu).toHaveCount(0);
});

test('a program reading the mouse keeps the right button; Shift+right-click still opens the menu', async ({ page }) => {
  const { pane, paneId } = await tandem.start(page);
  // Mouse reporting on (as vim with mouse=a or htop turn it on), then wait for the prompt.
  await runCommand(page, pane, "printf '\\e[?1000h'; echo mouse-on");
  await waitForBuffer(page, paneId, /^mouse-on$/m);
  await expect.poll(() => page.evaluate((id) => (window as unknown as { __tandem: { terminals: Map<number, import('@xterm/xterm').Terminal> } }).__tandem.terminals.get(Number(id))!.modes.mouseTrackingMode, paneId)).toBe('vt200');

  const menu = page.getByTestId('pane-menu');
  await pane.click({ button: 'right' });
  await expect(menu).toHaveCount(0);
  await pane.click({ button: 'right', modifiers: ['Shift'] });
  await expect(menu).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
});

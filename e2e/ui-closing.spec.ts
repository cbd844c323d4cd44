import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { bufferText, runCommand, waitForBuffer } from './support/terminalPage';
import { useTandem } from './support/uiPage';

// Closing a pane or a tab in which programs run asks first (Cancel is the default, so Enter
// keeps everything); an idle pane closes at once; [terminal] confirm_close changes that; a
// dead pane has its own Close button and key.

const tandem = useTandem();

/** Splits the focused pane; the new pane (focused) once its shell is at its prompt. */
async function splitRight(page: Page, except: string): Promise<{ pane: Locator; paneId: string }> {
  await page.keyboard.press('Control+Shift+D');
  const pane = page.locator(`[data-testid="pane"][data-focused="true"]:not([data-pane-id="${except}"]):visible`);
  await expect(pane).toHaveAttribute('data-state', 'PROMPT', { timeout: 30_000 });
  return { pane, paneId: (await pane.getAttribute('data-pane-id'))! };
}

/** Starts vim in the pane and waits for its screen (so vim, not the shell's fork, runs). */
async function startVim(page: Page, pane: Locator, paneId: string): Promise<void> {
  await pane.click();
  await page.keyboard.type('vim -u NONE -N notes.txt');
  await page.keyboard.press('Enter');
  await waitForBuffer(page, paneId, /^~\s*$/m);
}

/** Starts python3's REPL and waits for its prompt. */
async function startPython(page: Page, pane: Locator, paneId: string): Promise<void> {
  await pane.click();
  await page.keyboard.type('python3 -q');
  await page.keyboard.press('Enter');
  await waitForBuffer(page, paneId, /^>>>/m);
}

test('Ctrl+Shift+W on vim asks, naming it; Enter cancels and vim keeps running; Close closes', async ({ page }) => {
  const { paneId: first } = await tandem.start(page);
  const { pane, paneId } = await splitRight(page, first);
  await startVim(page, pane, paneId);
  await page.keyboard.type('ikept-text');

  await page.keyboard.press('Control+Shift+W');
  const question = page.getByTestId('close-question');
  await expect(question).toBeVisible();
  await expect(page.getByTestId('close-question-message')).toHaveText('vim is running in this pane. Closing ends it.');
  await expect(page.getByTestId('close-question-cancel')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(question).toHaveCount(0);
  await expect(page.getByTestId('pane')).toHaveCount(2);
  // vim is still there with the unsaved edit, and has the keyboard again.
  await page.keyboard.type('-more');
  await waitForBuffer(page, paneId, /^kept-text-more/m);

  await page.keyboard.press('Control+Shift+W');
  await expect(question).toBeVisible();
  await page.getByRole('button', { name: 'Close Pane', exact: true }).click();
  await expect(question).toHaveCount(0);
  await expect(page.getByTestId('pane')).toHaveCount(1);
  await expect(page.locator(`[data-pane-id="${paneId}"]`)).toHaveCount(0);
});

test('the palette\'s Close Pane asks for a running loop; Esc cancels; an idle pane closes at once', async ({ page }) => {
  const { paneId: first } = await tandem.start(page);
  const { pane } = await splitRight(page, first);
  await pane.click();
  const loop = 'while :; do sleep 1; done';
  await page.keyboard.type(loop);
  await page.keyboard.press('Enter');
  await expect(pane).toHaveAttribute('data-state', 'EXECUTING');

  await page.keyboard.press('Control+Shift+P');
  await page.keyboard.type('close pane');
  await page.keyboard.press('Enter');
  const question = page.getByTestId('close-question');
  await expect(question).toBeVisible();
  // Between two sleeps the shell runs the loop itself: either is named.
  await expect(page.getByTestId('close-question-message')).toHaveText(/^(sleep|“while :; do sleep 1; done”) is running in this pane\./);
  await page.keyboard.press('Escape');
  await expect(question).toHaveCount(0);
  await expect(page.getByTestId('pane')).toHaveCount(2);
  await expect(pane).toHaveAttribute('data-state', 'EXECUTING');

  // Ctrl+C ends the loop; the idle shell then closes without a question.
  await pane.click();
  await page.keyboard.press('Control+C');
  await expect(pane).toHaveAttribute('data-state', 'PROMPT');
  await page.keyboard.press('Control+Shift+W');
  await expect(page.getByTestId('pane')).toHaveCount(1);
  await expect(question).toHaveCount(0);
});

test('a tab\'s × asks once for all its panes, naming their programs', async ({ page }) => {
  const { pane: left, paneId: leftId } = await tandem.start(page);
  await runCommand(page, left, 'true');
  await page.getByTestId('new-tab').click();
  const tabs = page.getByTestId('tab');
  await expect(tabs).toHaveCount(2);
  const firstOfTab = page.locator('[data-testid="pane"]:visible');
  await expect(firstOfTab).toHaveAttribute('data-state', 'PROMPT', { timeout: 30_000 });
  const tabPaneId = (await firstOfTab.getAttribute('data-pane-id'))!;
  await startVim(page, firstOfTab, tabPaneId);
  const { pane: second, paneId: secondId } = await splitRight(page, tabPaneId);
  await startPython(page, second, secondId);

  await tabs.nth(1).getByRole('button', { name: /close tab/i }).click();
  const question = page.getByTestId('close-question');
  await expect(page.getByTestId('close-question-message')).toHaveText('vim, python3 are running in this tab. Closing ends them.');
  await page.keyboard.press('Enter');
  await expect(question).toHaveCount(0);
  await expect(tabs).toHaveCount(2);

  await tabs.nth(1).getByRole('button', { name: /close tab/i }).click();
  await page.getByRole('button', { name: 'Close Tab', exact: true }).click();
  await expect(tabs).toHaveCount(1);
  await expect(page.locator(`[data-pane-id="${leftId}"]`)).toBeVisible();
  await expect(page.getByTestId('pane')).toHaveCount(1);
});

test('confirm_close = "never" closes a running program at once', async ({ page }) => {
  const { paneId: first } = await tandem.start(page, { configToml: '[terminal]\nconfirm_close = "never"\n' });
  const { pane } = await splitRight(page, first);
  await pane.click();
  await page.keyboard.type('sleep 1000');
  await page.keyboard.press('Enter');
  await expect(pane).toHaveAttribute('data-state', 'EXECUTING');
  await page.keyboard.press('Control+Shift+W');
  await expect(page.getByTestId('pane')).toHaveCount(1);
  await expect(page.getByTestId('close-question')).toHaveCount(0);
});

test('confirm_close = "always" asks even for an idle shell, chosen in Settings', async ({ page }) => {
  const { paneId: first, server } = await tandem.start(page);
  await page.getByTestId('open-settings').click();
  const dialog = page.getByTestId('settings-dialog');
  await dialog.locator('select[name="confirmClose"]').selectOption('always');
  await page.getByTestId('settings-save').click();
  await expect(dialog).toBeHidden();
  expect(readFileSync(join(server.home, '.config/tandem/config.toml'), 'utf8')).toContain('confirm_close = "always"');

  await splitRight(page, first);
  await page.keyboard.press('Control+Shift+W');
  await expect(page.getByTestId('close-question-message')).toHaveText('Closing it ends its shell.');
  await page.getByRole('button', { name: 'Close Pane', exact: true }).click();
  await expect(page.getByTestId('pane')).toHaveCount(1);
});

test('a dead pane says which keys work in a browser; its Close button and Ctrl+D close it', async ({ page }) => {
  const { paneId: first } = await tandem.start(page);
  const { pane, paneId } = await splitRight(page, first);
  await pane.click();
  await page.keyboard.type('exit');
  await page.keyboard.press('Enter');
  await expect(pane).toHaveAttribute('data-exited', 'true');
  // The narrow pane wraps the line: read it unwrapped.
  const unwrapped = async () => (await bufferText(page, paneId)).replace(/\n/g, '');
  await expect.poll(unwrapped).toContain('[process exited with code 0] — press Enter to restart or Ctrl+D to close');
  // In a browser Ctrl+Shift+W closes the browser's window: the pane does not offer it.
  expect(await unwrapped()).not.toContain('Ctrl+Shift+W');
  const exitBar = pane.getByTestId('pane-exit');
  await expect(exitBar.getByTestId('pane-exit-close')).toHaveText('Close (Ctrl+D)');
  await exitBar.getByTestId('pane-exit-close').click();
  await expect(page.getByTestId('pane')).toHaveCount(1);

  const again = await splitRight(page, first);
  await again.pane.click();
  await page.keyboard.type('exit');
  await page.keyboard.press('Enter');
  await expect(again.pane).toHaveAttribute('data-exited', 'true');
  await page.keyboard.press('Control+D');
  await expect(page.getByTestId('pane')).toHaveCount(1);
  expect(await bufferText(page, first)).not.toContain('process exited');
});

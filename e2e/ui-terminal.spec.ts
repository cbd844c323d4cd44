import { expect, test } from '@playwright/test';
import { runCommand, waitForBuffer } from './support/terminalPage';
import { probeTerminal, useTandem } from './support/uiPage';

const tandem = useTandem();

test('find in scrollback (Ctrl+Shift+F) selects a string printed earlier and scrolls to it', async ({ page }) => {
  const { pane, paneId } = await tandem.start(page);
  // The command line holds "$((6*7))"; only the output holds "find-42-marker".
  await runCommand(page, pane, 'echo find-$((6*7))-marker');
  await runCommand(page, pane, 'seq 1 120');
  await waitForBuffer(page, paneId, /^120$/m);
  const before = await probeTerminal(page, paneId);
  expect(before.viewportY).toBe(before.baseY);

  await page.keyboard.press('Control+Shift+F');
  const input = page.getByTestId('find-input');
  await expect(input).toBeFocused();
  await page.keyboard.type('find-42-marker');
  await expect.poll(async () => (await probeTerminal(page, paneId)).selection).toBe('find-42-marker');
  await expect(page.getByTestId('find-status')).toHaveText('1 of 1');
  // The match is far up in the scrollback: the viewport moved to it.
  expect((await probeTerminal(page, paneId)).viewportY).toBeLessThan(before.baseY - 50);

  // With two matches, the search starts from the newest output and Enter goes further up.
  await input.fill('');
  await page.keyboard.press('Escape');
  await runCommand(page, pane, 'echo twice-$((1+1))-old; seq 1 60; echo twice-$((1+1))-new');
  await page.keyboard.press('Control+Shift+F');
  await page.keyboard.type('twice-2-');
  await expect(page.getByTestId('find-status')).toHaveText('2 of 2');
  const newest = (await probeTerminal(page, paneId)).viewportY;
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('find-status')).toHaveText('1 of 2');
  expect((await probeTerminal(page, paneId)).viewportY).toBeLessThan(newest);

  // A string that is not there says so.
  await input.fill('not-in-the-scrollback-zz');
  await expect(page.getByTestId('find-status')).toHaveText('No results');

  await page.keyboard.press('Escape');
  await expect(page.getByTestId('find-bar')).toHaveCount(0);
  await expect(page.locator('.xterm-helper-textarea').first()).toBeFocused();
});

test('font zoom: Ctrl+= and Ctrl+- change the font size, Ctrl+0 resets it; scrollback defaults to 10,000 lines', async ({ page }) => {
  const { pane, paneId } = await tandem.start(page);
  await runCommand(page, pane, 'true');
  const fontSize = async () => (await probeTerminal(page, paneId)).fontSize;
  const initial = await probeTerminal(page, paneId);
  expect(initial.fontSize).toBe(14);
  expect(initial.scrollback).toBe(10_000);

  await page.keyboard.press('Control+=');
  await expect.poll(fontSize).toBe(15);
  await page.keyboard.press('Control+=');
  await expect.poll(fontSize).toBe(16);
  await expect(page.getByTestId('status-zoom')).toHaveText('16px');
  // Bigger glyphs: fewer rows fit in the same pane.
  await expect.poll(async () => (await probeTerminal(page, paneId)).rows).toBeLessThan(initial.rows);

  await page.keyboard.press('Control+0');
  await expect.poll(fontSize).toBe(14);
  await expect(page.getByTestId('status-zoom')).toHaveCount(0);
  await expect.poll(async () => (await probeTerminal(page, paneId)).rows).toBe(initial.rows);

  await page.keyboard.press('Control+-');
  await expect.poll(fontSize).toBe(13);
  await page.keyboard.press('Control+0');
  await expect.poll(fontSize).toBe(14);

  // The zoom keys never reach the shell: the prompt line is still empty.
  await runCommand(page, pane, 'echo typed-after-zoom');
});

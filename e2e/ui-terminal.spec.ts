import { expect, test, type Locator, type Page } from '@playwright/test';
import { runCommand, screenRowOf, terminalSize, waitForBuffer } from './support/terminalPage';
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

/** The client coordinates of the middle of cell `column` (0-based) of the on-screen row whose text is `line`. */
async function cellOf(page: Page, pane: Locator, paneId: string, line: string, column: number): Promise<{ x: number; y: number }> {
  const row = await screenRowOf(page, paneId, line);
  expect(row, `"${line}" on screen`).toBeGreaterThanOrEqual(0);
  const screen = (await pane.locator('.xterm-screen').boundingBox())!;
  const { cols, rows } = await terminalSize(page, paneId);
  return { x: screen.x + (screen.width / cols) * (column + 0.5), y: screen.y + (screen.height / rows) * (row + 0.5) };
}

async function ctrlClick(page: Page, at: { x: number; y: number }): Promise<void> {
  await page.keyboard.down('Control');
  await page.mouse.click(at.x, at.y);
  await page.keyboard.up('Control');
}

test('links show their target on hover and open on Ctrl+click; one whose text names another host asks first', async ({ page, context }) => {
  await context.route(/^https:\/\/[a-z]+\.example\//, (route) => route.fulfill({ contentType: 'text/plain', body: 'opened' }));
  const opened: string[] = [];
  context.on('page', (popup) => void popup.waitForLoadState().then(() => opened.push(popup.url())));
  const { pane, paneId } = await tandem.start(page);
  const textarea = page.locator('.xterm-helper-textarea').first();
  const tip = page.getByTestId('link-tip');

  // A plain URL in the output: hover shows it, Ctrl+click opens it, no question.
  await runCommand(page, pane, 'echo "url: https://plain.example/$((6*7))"');
  await waitForBuffer(page, paneId, /^url: https:\/\/plain\.example\/42$/m);
  const plain = await cellOf(page, pane, paneId, 'url: https://plain.example/42', 10);
  await page.mouse.move(plain.x, plain.y);
  await expect(tip).toBeVisible();
  await expect(page.getByTestId('link-tip-target')).toHaveText('https://plain.example/42');
  await expect(page.getByTestId('link-tip-hint')).toHaveText('Ctrl+click to open');
  // A plain click does not open.
  await page.mouse.click(plain.x, plain.y);
  await ctrlClick(page, plain);
  await expect.poll(() => opened).toEqual(['https://plain.example/42']);
  await expect(page.getByTestId('link-confirm')).toHaveCount(0);
  await page.mouse.move(1, 1);
  await expect(tip).toHaveCount(0);

  // OSC 8: the text says bank.example, the link goes to evil.example.
  await runCommand(page, pane, "printf '\\e]8;;https://evil.example/\\a%s\\e]8;;\\a\\n' https://bank.example");
  await waitForBuffer(page, paneId, /^https:\/\/bank\.example$/m);
  const misleading = await cellOf(page, pane, paneId, 'https://bank.example', 4);
  await page.mouse.move(misleading.x, misleading.y);
  await expect(page.getByTestId('link-tip-target')).toHaveText('https://evil.example/');
  await expect(tip).toHaveAttribute('data-text-differs', 'true');

  await ctrlClick(page, misleading);
  const dialog = page.getByTestId('link-confirm');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('link-confirm-target')).toHaveText('https://evil.example/');
  await expect(dialog.getByTestId('link-confirm-text')).toHaveText('https://bank.example');
  await expect(dialog.getByTestId('link-confirm-cancel')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(textarea).toBeFocused();

  // The dialog covered the link: the pointer comes back to it, as a hand would (to another
  // of its cells: xterm does not look again at the cell it left from).
  const again = await cellOf(page, pane, paneId, 'https://bank.example', 8);
  await page.mouse.move(1, 1);
  await page.mouse.move(again.x, again.y);
  await expect(tip).toBeVisible();
  await ctrlClick(page, again);
  await expect(dialog).toBeVisible();
  await dialog.getByTestId('link-confirm-open').click();
  await expect(dialog).toHaveCount(0);
  await expect.poll(() => opened).toEqual(['https://plain.example/42', 'https://evil.example/']);
  await expect(textarea).toBeFocused();
  // Only the two links opened: Escape opened nothing.
  expect(opened).toHaveLength(2);

  // The keys typed afterwards reach the shell.
  await runCommand(page, pane, 'echo after-links');
  await waitForBuffer(page, paneId, /^after-links$/m);
});

import { expect, test } from '@playwright/test';
import { bufferText, runCommand, screenRowOf, terminalSize, waitForBuffer } from './support/terminalPage';
import { makeHome } from './support/tandemServer';
import { allowClipboard, readClipboardText, useTandem, writeClipboardText } from './support/uiPage';

const tandem = useTandem();


test('selecting with the mouse and Ctrl+Shift+C copies; Ctrl+Shift+C without a selection sends nothing to the shell', async ({ page }) => {
  const { server, pane, paneId } = await tandem.start(page);
  await allowClipboard(page, server.origin);
  await runCommand(page, pane, 'echo copy-$((3*3))-me');
  await writeClipboardText(page, 'before');

  // The block's exit code can reach the page before its output is parsed: wait for the line.
  await expect.poll(() => screenRowOf(page, paneId, 'copy-9-me')).toBeGreaterThanOrEqual(0);
  const row = await screenRowOf(page, paneId, 'copy-9-me');
  const screen = (await pane.locator('.xterm-screen').boundingBox())!;
  const { cols, rows } = await terminalSize(page, paneId);
  await page.mouse.dblclick(screen.x + (screen.width / cols) * 2.5, screen.y + (screen.height / rows) * (row + 0.5));
  await page.keyboard.press('Control+Shift+C');
  await expect.poll(() => readClipboardText(page)).toBe('copy-9-me');

  // No selection: the chord is swallowed, the shell's line stays empty.
  await pane.click();
  await page.keyboard.press('Control+Shift+C');
  await runCommand(page, pane, 'echo line-is-clean');
  await waitForBuffer(page, paneId, /^line-is-clean$/m);
});

test('Alt+Arrow and clicks move focus between split panes; keystrokes go to the focused pane', async ({ page }) => {
  const { pane: left, paneId: leftId } = await tandem.start(page);
  await runCommand(page, left, 'true');
  await page.keyboard.press('Control+Shift+D');
  const right = page.locator(`[data-testid="pane"]:not([data-pane-id="${leftId}"])`);
  await expect(right).toHaveAttribute('data-focused', 'true');
  const rightId = (await right.getAttribute('data-pane-id'))!;

  await page.keyboard.press('Alt+ArrowLeft');
  await expect(left).toHaveAttribute('data-focused', 'true');
  await expect(right).toHaveAttribute('data-focused', 'false');
  await page.keyboard.type('echo typed-left-$((1+1))');
  await page.keyboard.press('Enter');
  await expect.poll(() => bufferText(page, leftId)).toMatch(/^typed-left-2$/m);
  expect(await bufferText(page, rightId)).not.toContain('typed-left');

  await page.keyboard.press('Alt+ArrowRight');
  await expect(right).toHaveAttribute('data-focused', 'true');
  // No pane further right: the key does nothing harmful and focus stays.
  await page.keyboard.press('Alt+ArrowRight');
  await expect(right).toHaveAttribute('data-focused', 'true');

  await left.click();
  await expect(left).toHaveAttribute('data-focused', 'true');
  await page.keyboard.type('echo clicked-left');
  await page.keyboard.press('Enter');
  await expect.poll(() => bufferText(page, leftId)).toMatch(/^clicked-left$/m);
  await expect(page.getByTestId('status-shell')).toHaveText('bash');
});

test('dragging the divider resizes both panes; Ctrl+Tab switches tabs', async ({ page }) => {
  const { pane: left, paneId: leftId } = await tandem.start(page);
  await runCommand(page, left, 'true');
  await page.keyboard.press('Control+Shift+D');
  await expect(page.getByTestId('pane')).toHaveCount(2);
  const rightId = (await page.locator(`[data-testid="pane"]:not([data-pane-id="${leftId}"])`).getAttribute('data-pane-id'))!;
  await expect.poll(async () => Math.abs((await terminalSize(page, leftId)).cols - (await terminalSize(page, rightId)).cols)).toBeLessThan(3);
  const before = await terminalSize(page, leftId);

  const divider = (await page.getByTestId('divider').boundingBox())!;
  await page.mouse.move(divider.x + divider.width / 2, divider.y + divider.height / 2);
  await page.mouse.down();
  await page.mouse.move(divider.x - 250, divider.y + divider.height / 2, { steps: 5 });
  await page.mouse.up();
  await expect.poll(async () => (await terminalSize(page, leftId)).cols).toBeLessThan(before.cols - 20);
  // Each pane refits on its own (debounced), so the right one is waited for too.
  await expect.poll(async () => (await terminalSize(page, rightId)).cols).toBeGreaterThan(before.cols + 20);

  await page.keyboard.press('Control+Shift+T');
  const tabs = page.getByTestId('tab');
  await expect(tabs).toHaveCount(2);
  await expect(tabs.nth(1)).toHaveAttribute('data-active', 'true');
  await page.keyboard.press('Control+Tab');
  await expect(tabs.nth(0)).toHaveAttribute('data-active', 'true');
  await expect(left).toBeVisible();
  await page.keyboard.press('Control+PageDown');
  await expect(tabs.nth(1)).toHaveAttribute('data-active', 'true');
  await expect(left).toBeHidden();
});

test("Tandem's chords work from the AI input, which keeps its own editing chords; Ctrl+W there closes nothing", async ({ page }) => {
  const { server, pane, paneId } = await tandem.start(page);
  await allowClipboard(page, server.origin);
  await runCommand(page, pane, 'echo chords-$((2+2))');
  await waitForBuffer(page, paneId, /^chords-4$/m);
  await writeClipboardText(page, 'before');

  await page.keyboard.press('Control+Shift+Space');
  const input = page.getByTestId('ai-input');
  await expect(input).toBeFocused();
  await page.keyboard.type('first line');
  await page.keyboard.press('Shift+Enter');
  await page.keyboard.type('second line');

  // Ctrl+Shift+Up selects to the start of the text, as in any text field (not a block jump).
  await page.keyboard.press('Control+Shift+ArrowUp');
  await expect.poll(() => input.evaluate((field: HTMLTextAreaElement) => field.selectionStart !== field.selectionEnd)).toBe(true);
  await expect(pane.locator('[data-testid="block"][data-selected="true"]')).toHaveCount(0);
  // Ctrl+Shift+C copies the field's selection, as it copies the terminal's.
  await page.keyboard.press('Control+Shift+C');
  const selected = await input.evaluate((field: HTMLTextAreaElement) => field.value.slice(field.selectionStart, field.selectionEnd));
  expect(selected.length).toBeGreaterThan(0);
  await expect.poll(() => readClipboardText(page)).toBe(selected);

  // Ctrl+W is no Tandem chord: the pane stays, the text stays.
  await page.keyboard.press('End');
  await page.keyboard.press('Control+W');
  await expect(input).toBeFocused();
  await expect(input).toHaveValue('first line\nsecond line');
  await expect(page.getByTestId('pane')).toHaveCount(1);

  // Zoom, find, the palette, a new tab and closing its pane, all from the input.
  await page.keyboard.press('Control+=');
  await expect(page.getByTestId('status-zoom')).toHaveText('15px');
  await page.keyboard.press('Control+0');
  await expect(page.getByTestId('status-zoom')).toHaveCount(0);

  await input.focus();
  await page.keyboard.press('Control+Shift+F');
  await expect(page.getByTestId('find-input')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('find-bar')).toHaveCount(0);

  await input.focus();
  await page.keyboard.press('Control+Shift+P');
  await expect(page.getByTestId('palette-input')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('command-palette')).toHaveCount(0);

  await input.focus();
  await page.keyboard.press('Control+Shift+T');
  await expect(page.getByTestId('tab')).toHaveCount(2);
  const second = page.locator(`[data-testid="pane"]:not([data-pane-id="${paneId}"])`);
  await expect(second).toHaveAttribute('data-state', 'PROMPT', { timeout: 30_000 });
  await input.focus();
  await page.keyboard.press('Control+Shift+W');
  await expect(page.getByTestId('tab')).toHaveCount(1);
  await expect(pane).toBeVisible();
  await expect(input).toHaveValue('first line\nsecond line');
});

test('a restart restores which pane of a split had the focus, the tab is named after it, and the restored line fits narrow panes', async ({
  page,
}) => {
  await page.setViewportSize({ width: 760, height: 600 });
  const home = makeHome();
  const first = await tandem.start(page, { home });
  await runCommand(page, first.pane, 'cd /tmp && echo focus-left');
  await page.keyboard.press('Control+Shift+D');
  const panes = page.getByTestId('pane');
  await expect(panes).toHaveCount(2);
  const right = page.locator(`[data-testid="pane"]:not([data-pane-id="${first.paneId}"])`);
  await runCommand(page, right, 'cd /usr && echo focus-right');
  await expect(right).toHaveAttribute('data-focused', 'true');
  await expect(page.getByTestId('tab').locator('.tab__title')).toHaveText('usr');
  const rightCols = (await terminalSize(page, (await right.getAttribute('data-pane-id'))!)).cols;

  // Quit as a user does (the engine saves the session on the way out), then start again on the same home.
  await page.close();
  await tandem.server().stop('SIGTERM');
  const again = await page.context().newPage();
  await again.setViewportSize({ width: 760, height: 600 });
  await tandem.start(again, { home, prompt: false });
  const restored = again.getByTestId('pane');
  await expect(restored).toHaveCount(2);
  const focused = again.locator('[data-testid="pane"][data-focused="true"]');
  await expect(focused).toHaveCount(1);
  await expect(focused).toHaveAttribute('data-pane-id', (await restored.nth(1).getAttribute('data-pane-id'))!);
  const focusedId = (await focused.getAttribute('data-pane-id'))!;
  await expect.poll(() => bufferText(again, focusedId)).toMatch(/^focus-right$/m);
  await expect(again.getByTestId('tab').locator('.tab__title')).toHaveText('usr');
  await expect(again.locator('.xterm-helper-textarea:focus')).toHaveCount(1);
  // Keys go to the restored focused pane.
  const pwd = await runCommand(again, focused, 'pwd');
  await expect(pwd).toHaveAttribute('data-cwd', '/usr');

  // The restored line is one short row in each pane, whatever their width.
  expect(rightCols).toBeLessThan(60);
  for (const paneId of [focusedId, (await restored.nth(0).getAttribute('data-pane-id'))!]) {
    await expect.poll(() => bufferText(again, paneId)).toMatch(/^── restored · \d\d:\d\d ──$/m);
  }
});

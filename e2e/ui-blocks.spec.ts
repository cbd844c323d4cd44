import { expect, test } from '@playwright/test';
import { bufferText, firstPane, runCommand, waitForBuffer } from './support/terminalPage';
import {
  allowClipboard,
  blockOf,
  blockRowTexts,
  probeTerminal,
  readClipboardText,
  useTandem,
  waitForPrompt,
  writeClipboardText,
} from './support/uiPage';

const tandem = useTandem();

test('a failing block is marked as a failure on its gutter, a succeeding one is not', async ({ page }) => {
  const { pane } = await tandem.start(page);
  const ok = await runCommand(page, pane, 'true');
  const failed = await runCommand(page, pane, 'sh -c "exit 3"');

  await expect(failed).toHaveAttribute('data-status', 'failure');
  await expect(failed).toHaveClass(/\bblock--failure\b/);
  await expect(failed.locator('.block__tint')).toHaveCount(1);
  await expect(failed.locator('.block__gutter')).toHaveAttribute('title', /exit 3 · \d+(\.\d+)? (ms|s)/);

  await expect(ok).toHaveAttribute('data-status', 'success');
  await expect(ok).not.toHaveClass(/\bblock--failure\b/);
  await expect(ok.locator('.block__tint')).toHaveCount(0);
  await expect(ok.locator('.block__gutter')).toHaveAttribute('title', /exit 0 · /);

  // Both marks are on screen, and their colours differ (red vs green).
  await expect(failed.locator('.block__gutter')).toBeVisible();
  await expect(ok.locator('.block__gutter')).toBeVisible();
  const colour = (locator: typeof ok) => locator.locator('.block__gutter').evaluate((element) => getComputedStyle(element).backgroundColor);
  expect(await colour(failed)).not.toBe(await colour(ok));

  // A running command is marked as running until it ends.
  await pane.click();
  await page.keyboard.type('sleep 1');
  await page.keyboard.press('Enter');
  const running = blockOf(pane, 'sleep 1');
  await expect(running).toHaveAttribute('data-status', 'running');
  await expect(running).toHaveAttribute('data-status', 'success', { timeout: 10_000 });
});

test('block menu: hover and keyboard open it; copy command, copy output, rerun', async ({ page }) => {
  const { server, pane, paneId } = await tandem.start(page);
  await allowClipboard(page, server.origin);
  const command = 'printf "menu-out-1\\nmenu-out-2\\n"';
  const block = await runCommand(page, pane, command);
  await runCommand(page, pane, 'true');

  // Hover on the gutter opens the menu of that block.
  const menu = block.getByTestId('block-menu');
  await expect(menu).toHaveCount(0);
  await block.locator('.block__gutter').hover();
  await expect(menu).toBeVisible();
  await expect(menu.getByTestId('block-duration')).toHaveText(/exit 0 · /);
  await expect(menu.getByTestId('block-ask-ai')).toBeVisible();

  await writeClipboardText(page, 'nothing yet');
  await menu.getByRole('menuitem', { name: 'Copy command' }).click();
  await expect.poll(() => readClipboardText(page)).toBe(command);
  // Each action closes the menu; hovering opens it again.
  await expect(menu).toHaveCount(0);
  await page.mouse.move(600, 5);
  await block.locator('.block__gutter').hover();

  await menu.getByRole('menuitem', { name: 'Copy output' }).click();
  await expect.poll(() => readClipboardText(page)).toMatch(/^menu-out-1\r?\nmenu-out-2\r?\n?$/);
  await expect(page.getByTestId('status-flash')).toHaveText('Output copied');
  await page.mouse.move(600, 5);
  await block.locator('.block__gutter').hover();

  await menu.getByRole('menuitem', { name: 'Rerun' }).click();
  await expect(blockOf(pane, command)).toHaveCount(2);
  await expect(blockOf(pane, command).last()).toHaveAttribute('data-exit-code', '0');
  await expect.poll(async () => (await bufferText(page, paneId)).match(/^menu-out-2$/gm)?.length ?? 0).toBe(2);

  // Keyboard: Ctrl+Shift+Enter opens the menu of the latest block with focus inside it.
  await page.mouse.move(600, 5);
  await pane.click();
  await waitForPrompt(pane);
  await writeClipboardText(page, 'nothing yet');
  await page.keyboard.press('Control+Shift+Enter');
  const latest = blockOf(pane, command).last();
  const keyboardMenu = latest.getByTestId('block-menu');
  await expect(keyboardMenu).toBeVisible();
  await expect(keyboardMenu.getByRole('menuitem', { name: 'Copy command' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(keyboardMenu.getByRole('menuitem', { name: 'Copy output' })).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await expect.poll(() => readClipboardText(page)).toBe(command);
  // The action closed the menu and focus went back to the terminal: typing reaches the shell.
  await expect(keyboardMenu).toHaveCount(0);
  await expect(page.locator('.xterm-helper-textarea').first()).toBeFocused();
  // Esc leaves a menu without an action, to the terminal as well.
  await page.keyboard.press('Control+Shift+Enter');
  await expect(keyboardMenu.getByRole('menuitem', { name: 'Copy command' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(keyboardMenu).toHaveCount(0);
  await expect(page.locator('.xterm-helper-textarea').first()).toBeFocused();
});

test('Ctrl+Shift+Up / Down jump between blocks and move the viewport', async ({ page }) => {
  const { pane, paneId } = await tandem.start(page);
  await runCommand(page, pane, 'echo first-block');
  await runCommand(page, pane, 'seq 1 150');
  await runCommand(page, pane, 'echo last-block');
  // Everything on screen, the next prompt included, before the bottom is measured.
  await waitForBuffer(page, paneId, /^last-block\n[^\n]*[#$%>] *$/m);
  const atBottom = await probeTerminal(page, paneId);
  expect(atBottom.baseY).toBeGreaterThan(100);
  expect(atBottom.viewportY).toBe(atBottom.baseY);

  const first = blockOf(pane, 'echo first-block');
  const seq = blockOf(pane, 'seq 1 150');
  const last = blockOf(pane, 'echo last-block');
  const viewportY = async () => (await probeTerminal(page, paneId)).viewportY;

  await page.keyboard.press('Control+Shift+ArrowUp');
  await expect(last).toHaveAttribute('data-selected', 'true');
  await page.keyboard.press('Control+Shift+ArrowUp');
  await expect(seq).toHaveAttribute('data-selected', 'true');
  await expect(last).not.toHaveAttribute('data-selected', 'true');
  await expect.poll(viewportY).toBeLessThan(atBottom.baseY - 100);
  const atSeq = await viewportY();

  await page.keyboard.press('Control+Shift+ArrowUp');
  await expect(first).toHaveAttribute('data-selected', 'true');
  await expect.poll(viewportY).toBeLessThan(atSeq);
  // The selected block's mark is in view, at the top.
  await expect(first.locator('.block__gutter')).toBeVisible();

  await page.keyboard.press('Control+Shift+ArrowDown');
  await expect(seq).toHaveAttribute('data-selected', 'true');
  await expect.poll(viewportY).toBe(atSeq);

  await page.keyboard.press('Control+Shift+ArrowDown');
  await expect(last).toHaveAttribute('data-selected', 'true');
  await page.keyboard.press('Control+Shift+ArrowDown');
  await expect(pane.locator('[data-testid="block"][data-selected="true"]')).toHaveCount(0);
  await expect.poll(viewportY).toBe(atBottom.baseY);
});

test('bracketed paste: multi-line text from Ctrl+Shift+V waits at the prompt until Enter', async ({ page }) => {
  const { server, pane, paneId } = await tandem.start(page);
  await allowClipboard(page, server.origin);
  await runCommand(page, pane, 'true');
  await waitForPrompt(pane);
  await writeClipboardText(page, 'echo pasted-$((40+1))\necho pasted-$((40+2))');
  await pane.click();
  await page.keyboard.press('Control+Shift+V');

  // The second line is echoed at the prompt; without bracketed paste the first line would
  // already have run (its output comes before the echo of the second line).
  await expect.poll(() => bufferText(page, paneId)).toContain('echo pasted-$((40+2))');
  expect(await bufferText(page, paneId)).not.toMatch(/^pasted-41$/m);
  await expect(blockOf(pane, 'echo pasted-$((40+1))')).toHaveCount(0);
  await expect(pane).toHaveAttribute('data-state', 'PROMPT');

  await page.keyboard.press('Enter');
  await expect.poll(() => bufferText(page, paneId)).toMatch(/^pasted-42$/m);
  expect(await bufferText(page, paneId)).toMatch(/^pasted-41$/m);
});

test('a slow command shows how long it took on its command row; a quick one does not', async ({ page }) => {
  const { pane } = await tandem.start(page);
  const quick = await runCommand(page, pane, 'true');
  await expect(quick.getByTestId('block-duration')).toHaveCount(0);
  const slow = await runCommand(page, pane, 'sleep 1.3');
  await expect(slow.getByTestId('block-duration')).toHaveText(/^1\.\d\d s$/);
  await expect(slow.getByTestId('block-duration')).toBeVisible();
});

test('Ask AI on a failed block opens the panel with the block attached and a question ready', async ({ page }) => {
  const { pane } = await tandem.start(page);
  const failed = await runCommand(page, pane, 'ls /no-such-place');
  await failed.locator('.block__gutter').hover();
  await failed.getByTestId('block-menu').getByTestId('block-ask-ai').click();
  const panel = page.getByTestId('ai-panel');
  await expect(panel).toBeVisible();
  await expect(panel.getByTestId('attachment')).toHaveAttribute('data-block-id', (await failed.getAttribute('data-block-id'))!);
  await expect(panel.getByTestId('ai-input')).toBeFocused();
  await expect(panel.getByTestId('ai-input')).not.toHaveValue('');
});

test('a block menu action closes the menu and gives the keys back to the shell; the menu never covers its command line', async ({
  page,
}) => {
  const { server, pane, paneId } = await tandem.start(page);
  await allowClipboard(page, server.origin);
  const command = 'echo menu-focus-1';
  const block = await runCommand(page, pane, command);
  await waitForBuffer(page, paneId, /^menu-focus-1\n[^\n]*[#$%>] *$/m);

  // A click on the gutter opens the menu with focus in it (the keyboard can walk it).
  await block.locator('.block__gutter').click();
  const menu = block.getByTestId('block-menu');
  await expect(menu.getByRole('menuitem', { name: 'Copy command' })).toBeFocused();
  // Its box lies above the command row or below it, never over it.
  const commandRow = await block.evaluate((element) => {
    const rect = element.getBoundingClientRect();
    return { top: rect.top, bottom: rect.top + parseFloat(getComputedStyle(element).getPropertyValue('--command-height')) };
  });
  const menuBox = (await menu.boundingBox())!;
  expect(menuBox.y + menuBox.height <= commandRow.top + 0.5 || menuBox.y >= commandRow.bottom - 0.5).toBe(true);

  await menu.getByRole('menuitem', { name: 'Copy command' }).click();
  await expect(menu).toHaveCount(0);
  await expect(page.getByTestId('status-flash')).toHaveText('Command copied');
  await expect.poll(() => readClipboardText(page)).toBe(command);
  await expect(page.locator('.xterm-helper-textarea').first()).toBeFocused();

  // The next keys go to the prompt, and Enter runs them (it does not press a menu button).
  await page.keyboard.type('echo hi');
  await page.keyboard.press('Enter');
  await expect(blockOf(pane, 'echo hi')).toHaveAttribute('data-exit-code', '0');
  await waitForBuffer(page, paneId, /^hi$/m);
  await expect(blockOf(pane, command)).toHaveCount(1);
});

test('a running command that has printed nothing yet has its running mark on its command row', async ({ page }) => {
  const { pane, paneId } = await tandem.start(page);
  await runCommand(page, pane, 'true');
  await pane.click();
  await page.keyboard.type('sleep 30');
  await page.keyboard.press('Enter');
  const running = blockOf(pane, 'sleep 30');
  await expect(running).toHaveAttribute('data-status', 'running');
  await expect(running.locator('.block__gutter')).toBeVisible();
  await expect.poll(async () => (await blockRowTexts(page, paneId, running))[0]).toMatch(/[#$%>] sleep 30$/);
  // Ctrl+C ends it; its mark then says how.
  await page.keyboard.press('Control+C');
  await expect(running).toHaveAttribute('data-status', 'failure');
});

test('a command that clears the screen and prints 30 rows has its mark on those 30 rows', async ({ page }) => {
  const { server, pane, paneId } = await tandem.start(page);
  const earlier = await runCommand(page, pane, 'echo before-clear');
  const command = 'clear; seq 101 130';
  const block = await runCommand(page, pane, command);
  await waitForBuffer(page, paneId, /^130\n[^\n]*[#$%>] *$/m);
  const expected = Array.from({ length: 30 }, (_, i) => String(101 + i));
  await expect.poll(() => blockRowTexts(page, paneId, block)).toEqual(expected);
  // The block before it was on the cleared screen: its rows are gone, and so is its mark.
  await expect(earlier).toBeHidden();

  // The same with a clear that keeps the scrollback (ED 2 only), typed at the bottom of a full screen.
  await runCommand(page, pane, 'seq 1 80');
  const keepScrollback = "printf '\\033[H\\033[2J'; seq 201 230";
  const second = await runCommand(page, pane, keepScrollback);
  await waitForBuffer(page, paneId, /^230\n[^\n]*[#$%>] *$/m);
  await expect.poll(() => blockRowTexts(page, paneId, second)).toEqual(expected.map((row) => String(Number(row) + 100)));

  // Its output (what the model and Copy output get) is those rows, and a reload puts the mark back on them.
  await allowClipboard(page, server.origin);
  await second.locator('.block__gutter').hover();
  await second.getByTestId('block-menu').getByRole('menuitem', { name: 'Copy output' }).click();
  await expect.poll(() => readClipboardText(page)).toBe(expected.map((row) => String(Number(row) + 100)).join('\n'));
  await page.mouse.move(600, 5);
  await page.reload();
  const { pane: again } = await firstPane(page, { prompt: false });
  await expect
    .poll(() => blockRowTexts(page, paneId, blockOf(again, keepScrollback)))
    .toEqual(expected.map((row) => String(Number(row) + 100)));
});

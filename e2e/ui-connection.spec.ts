import { expect, test } from '@playwright/test';
import { firstPane, runCommand, waitForBuffer } from './support/terminalPage';
import { allowClipboard, blockOf, blockRowTexts, readClipboardText, useTandem } from './support/uiPage';

const tandem = useTandem();

test('when the engine goes away the banner says so and, after a few failed attempts, how to get back in', async ({ page }) => {
  const { server, pane } = await tandem.start(page);
  await runCommand(page, pane, 'true');
  await expect(page.getByTestId('status-connection')).toHaveText('connected');

  await server.stop();
  const banner = page.locator('[data-testid="banner"][data-kind="disconnected"]');
  await expect(banner).toBeVisible();
  await expect(banner).toContainText('Disconnected from the Tandem engine');
  await expect(page.getByTestId('status-connection')).toHaveText('reconnecting…');
  // Retries back off (250 ms, 500 ms, 1 s …); the hint comes after the third failure.
  await expect(banner.locator('.banner__detail')).toContainText('open the address', { timeout: 10_000 });
  await expect(banner.getByRole('button', { name: 'Retry now' })).toBeVisible();
  // The terminal keeps its scrollback while disconnected.
  await expect(pane).toBeVisible();
});

test('a reload re-attaches the pane: blocks from before it keep their rows and still work, a running one ends', async ({ page }) => {
  const { server, pane, paneId } = await tandem.start(page);
  await allowClipboard(page, server.origin);
  const printf = 'printf "before-1\\nbefore-2\\n"';
  const failing = 'sh -c "echo failing; exit 3"';
  await runCommand(page, pane, printf);
  await runCommand(page, pane, failing);
  await waitForBuffer(page, paneId, /^failing\n[^\n]*[#$%>] *$/m);
  const printfRows = ['$ ' + printf, 'before-1', 'before-2'];
  const rowsOf = (command: string) => blockRowTexts(page, paneId, blockOf(pane, command));
  // The prompt is "$ " in the test HOME; compare the rows without it.
  const withoutPrompt = (rows: string[]) => rows.map((row) => row.replace(/^.*?[#$%>] (?=printf|sh -c|sleep)/, '$ '));
  await expect.poll(async () => withoutPrompt(await rowsOf(printf))).toEqual(printfRows);
  await expect.poll(async () => withoutPrompt(await rowsOf(failing))).toEqual(['$ ' + failing, 'failing']);

  // Still running when the page goes away: its end arrives after the reload.
  const sleeper = 'sleep 2; echo slept';
  await pane.click();
  await page.keyboard.type(sleeper);
  await page.keyboard.press('Enter');
  await expect(blockOf(pane, sleeper)).toHaveAttribute('data-status', 'running');

  await page.reload();
  const { pane: again, paneId: againId } = await firstPane(page, { prompt: false });
  expect(againId).toBe(paneId);
  await expect(blockOf(again, printf)).toHaveAttribute('data-status', 'success');
  await expect(blockOf(again, failing)).toHaveAttribute('data-status', 'failure');
  await expect.poll(async () => withoutPrompt(await blockRowTexts(page, paneId, blockOf(again, printf)))).toEqual(printfRows);
  await expect
    .poll(async () => withoutPrompt(await blockRowTexts(page, paneId, blockOf(again, failing))))
    .toEqual(['$ ' + failing, 'failing']);

  const running = blockOf(again, sleeper);
  await expect(running).toHaveAttribute('data-status', 'success', { timeout: 10_000 });
  await waitForBuffer(page, paneId, /^slept\n[^\n]*[#$%>] *$/m);
  await expect.poll(async () => withoutPrompt(await blockRowTexts(page, paneId, running))).toEqual(['$ ' + sleeper, 'slept']);

  // The blocks still work: their menu copies the output, and Ctrl+Shift+Up walks them.
  const restored = blockOf(again, printf);
  await restored.locator('.block__gutter').hover();
  await restored.getByTestId('block-menu').getByRole('menuitem', { name: 'Copy output' }).click();
  await expect.poll(() => readClipboardText(page)).toMatch(/^before-1\r?\nbefore-2\r?\n?$/);
  await page.mouse.move(600, 5);
  await again.click();
  await page.keyboard.press('Control+Shift+ArrowUp');
  await expect(running).toHaveAttribute('data-selected', 'true');
  await page.keyboard.press('Control+Shift+ArrowUp');
  await expect(blockOf(again, failing)).toHaveAttribute('data-selected', 'true');
  await page.keyboard.press('Control+Shift+ArrowUp');
  await expect(restored).toHaveAttribute('data-selected', 'true');
});

test('the address without its token says it needs the token printed by `tandem web`, without retrying; pasting the address gets in', async ({
  page,
}) => {
  const { server, pane } = await tandem.start(page);
  await runCommand(page, pane, 'true');
  // The address bar after the first load: the token was taken out of it.
  expect(page.url()).not.toContain('token=');
  const bare = page.url();

  // A new tab with that address (no sessionStorage carried over).
  const other = await page.context().newPage();
  const socketAttempts: string[] = [];
  other.on('websocket', (socket) => socketAttempts.push(socket.url()));
  await other.goto(bare);
  const banner = other.locator('[data-testid="banner"][data-kind="refused"]');
  await expect(banner).toContainText('This address needs the access token printed by `tandem web`');
  await expect(other.getByTestId('status-connection')).toHaveText('no access token');
  await expect(other.locator('[data-testid="banner"][data-kind="disconnected"]')).toHaveCount(0);
  expect(socketAttempts).toEqual([]);

  // A wrong token (an earlier run's) is told apart from none, and is not retried either.
  await other.goto(`${server.origin}/?token=not-the-token-of-this-run`);
  await expect(other.locator('[data-testid="banner"][data-kind="refused"]')).toContainText('not the one `tandem web` printed');
  const attempts = socketAttempts.length;
  expect(attempts).toBe(1);
  await expect(other.getByTestId('status-connection')).toHaveText('no access token');

  // The address it printed, pasted into the banner, opens the session here.
  await other.getByRole('textbox', { name: /address or access token/i }).fill(server.url);
  await other.getByRole('button', { name: 'Open' }).click();
  await expect(other.getByTestId('status-connection')).toHaveText('connected');
  await expect(other.locator('[data-testid="banner"][data-kind="refused"]')).toHaveCount(0);
  expect(socketAttempts.length).toBe(attempts + 1);
  await other.close();
});

test('a reload (F5) in browser mode keeps the access token: the page reconnects', async ({ page }) => {
  const { pane } = await tandem.start(page);
  await runCommand(page, pane, 'true');
  expect(page.url()).not.toContain('token=');
  await page.reload();
  await expect(page.getByTestId('status-connection')).toHaveText('connected');
  await expect(page.locator('[data-testid="banner"]')).toHaveCount(0);
});

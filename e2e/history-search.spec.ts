import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { allowClipboard, blockOf, readClipboardText } from './support/uiPage';
import { firstPane, runCommand, waitForBuffer } from './support/terminalPage';
import { makeHome, removeHome, startTandem, type TandemServer } from './support/tandemServer';

// The history search overlay in a real browser against `tandem web` with a real bash: commands
// run before a restart are found as you type after it, filtered to failed ones, shown with the
// commands around them, put on the prompt without running (Enter) or run (Shift+Enter). The
// shell's own Ctrl+R is never taken.

let server: TandemServer | undefined;
let home: string | undefined;

test.afterEach(async () => {
  await server?.stop();
  server = undefined;
  if (home) removeHome(home);
  home = undefined;
});

async function open(page: Page, configToml?: string): Promise<{ pane: Locator; paneId: string }> {
  server = await startTandem({ shell: '/usr/bin/bash', home, configToml });
  await page.goto(server.url);
  return firstPane(page);
}

const FIRST = 'echo alpha-before-restart';
const FAILING = "sh -c 'exit 3' && echo failing-before-restart";
const LAST = 'echo omega-before-restart';

/** Opens the overlay with its key from the pane and waits for its first answer. */
async function openOverlay(page: Page, pane: Locator): Promise<Locator> {
  await pane.click();
  await page.keyboard.press('Control+Shift+R');
  const overlay = page.getByTestId('history-search');
  await expect(overlay).toBeVisible();
  await expect(page.getByTestId('history-search-input')).toBeFocused();
  return overlay;
}

function results(page: Page): Locator {
  return page.getByTestId('history-result');
}

test('finds a command from before a restart as you type, filters to failed ones, shows the commands around one, inserts without running', async ({ page }) => {
  home = makeHome();
  let { pane } = await open(page);
  for (const command of [FIRST, FAILING, LAST]) await runCommand(page, pane, command);
  await server!.stop();

  ({ pane } = await open(page));
  await openOverlay(page, pane);
  await page.keyboard.type('alpha-bef');
  await expect(results(page)).toHaveCount(1);
  await expect(results(page).first()).toHaveAttribute('data-command', FIRST);
  await expect(results(page).first().getByTestId('history-exit')).toHaveText('exit 0');
  await expect(results(page).first().getByTestId('history-who-ran')).toHaveText('you');

  // All three, then only the failed one.
  await page.getByTestId('history-search-input').fill('before-restart');
  await expect(results(page)).toHaveCount(3);
  await page.locator('[data-chip="failed"]').click();
  await expect(page.locator('[data-chip="failed"]')).toHaveAttribute('aria-pressed', 'true');
  await expect(results(page)).toHaveCount(1);
  await expect(results(page).first()).toHaveAttribute('data-command', FAILING);
  await expect(results(page).first().getByTestId('history-exit')).toHaveText('exit 3');
  await expect(results(page).first()).toHaveClass(/history-result--failure/);

  // The commands around it in its session, oldest first, the match highlighted and selected.
  await page.keyboard.press('Alt+N');
  await expect(page.getByTestId('history-around')).toBeVisible();
  await expect(results(page)).toHaveCount(3);
  expect(await results(page).evaluateAll((rows) => rows.map((row) => row.getAttribute('data-command')))).toEqual([FIRST, FAILING, LAST]);
  const anchor = page.locator('[data-testid="history-result"][data-anchor="true"]');
  await expect(anchor).toHaveAttribute('data-command', FAILING);
  await expect(anchor).toHaveAttribute('aria-selected', 'true');
  // Navigable, with the same actions: Up selects the command before it, Enter puts it on the prompt.
  await page.keyboard.press('ArrowUp');
  await expect(results(page).first()).toHaveAttribute('aria-selected', 'true');
  const before = await blockOf(pane, FIRST).count();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('history-search')).toHaveCount(0);
  await expect(page.locator('.xterm-helper-textarea').first()).toBeFocused();

  // It waits on the prompt, not run: what is typed next joins the same line, and one block runs.
  await page.keyboard.type(' && echo inserted-then-run');
  await page.keyboard.press('Enter');
  await expect(blockOf(pane, `${FIRST} && echo inserted-then-run`)).toHaveAttribute('data-exit-code', '0');
  expect(await blockOf(pane, FIRST).count()).toBe(before);
});

test('Shift+Enter runs the selected command in the pane; Escape closes and gives the keys back to the pane', async ({ page }) => {
  home = makeHome();
  const { pane } = await open(page);
  await runCommand(page, pane, 'echo run-me-again');
  await runCommand(page, pane, 'true');

  await openOverlay(page, pane);
  await page.keyboard.type('run-me');
  await expect(results(page)).toHaveCount(1);
  // Modal: Shift+Tab from the search field goes round to the last button, not to the pane behind.
  await page.keyboard.press('Shift+Tab');
  await expect(page.locator('[data-testid="history-action"][data-action="forget"]')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('history-search-input')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('history-search')).toHaveCount(0);
  await expect(page.locator('.xterm-helper-textarea').first()).toBeFocused();

  await openOverlay(page, pane);
  await page.keyboard.type('run-me');
  await expect(results(page)).toHaveCount(1);
  await page.keyboard.press('Shift+Enter');
  await expect(blockOf(pane, 'echo run-me-again')).toHaveCount(2);
  await expect(blockOf(pane, 'echo run-me-again').last()).toHaveAttribute('data-exit-code', '0');
});

test('inserting into a pane that runs a command is refused with the reason, nothing typed', async ({ page }) => {
  home = makeHome();
  const { pane, paneId } = await open(page);
  await runCommand(page, pane, 'echo waiting-command');
  await pane.click();
  await page.keyboard.type('sleep 30');
  await page.keyboard.press('Enter');
  await expect(pane).toHaveAttribute('data-state', 'EXECUTING');

  await openOverlay(page, pane);
  await page.keyboard.type('waiting-comm');
  await expect(results(page)).toHaveCount(1);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('history-notice')).toContainText('not at its prompt');
  await expect(page.getByTestId('history-search')).toBeVisible();
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+C');
  await expect(pane).toHaveAttribute('data-state', 'PROMPT');
  await waitForBuffer(page, paneId, /\^C/);
  await expect(blockOf(pane, 'echo waiting-command')).toHaveCount(1);
});

test("plain Ctrl+R stays the shell's own reverse search", async ({ page }) => {
  home = makeHome();
  const { pane, paneId } = await open(page);
  await runCommand(page, pane, 'echo ctrl-r-target');
  await pane.click();
  await page.keyboard.press('Control+R');
  await waitForBuffer(page, paneId, /\(reverse-i-search\)/);
  await expect(page.getByTestId('history-search')).toHaveCount(0);
  await page.keyboard.press('Control+G');
});

test('a record still in the scrollback opens its block and goes to the AI as an attached block; copy; forget asks first and deletes it', async ({ page }) => {
  home = makeHome();
  const { pane } = await open(page);
  await allowClipboard(page, server!.origin);
  const block = await runCommand(page, pane, 'echo open-me-later');
  const blockId = (await block.getAttribute('data-block-id'))!;
  await runCommand(page, pane, 'seq 1 200');

  await openOverlay(page, pane);
  await page.keyboard.type('open-me');
  await expect(results(page)).toHaveCount(1);
  const openButton = page.locator('[data-testid="history-action"][data-action="open"]');
  await expect(openButton).toBeEnabled();
  await page.keyboard.press('Alt+O');
  await expect(page.getByTestId('history-search')).toHaveCount(0);
  await expect(blockOf(pane, 'echo open-me-later')).toHaveAttribute('data-selected', 'true');
  await expect(page.locator('.xterm-helper-textarea').first()).toBeFocused();

  await openOverlay(page, pane);
  await page.keyboard.type('open-me');
  await expect(results(page)).toHaveCount(1);
  await page.keyboard.press('Alt+C');
  await expect(page.getByTestId('history-notice')).toHaveText('Command copied');
  expect(await readClipboardText(page)).toBe('echo open-me-later');
  await page.keyboard.press('Alt+A');
  await expect(page.getByTestId('history-search')).toHaveCount(0);
  await expect(page.locator(`[data-testid="attachment"][data-block-id="${blockId}"]`)).toBeVisible();

  await openOverlay(page, pane);
  await page.keyboard.type('open-me');
  await expect(results(page)).toHaveCount(1);
  await page.keyboard.press('Shift+Delete');
  const dialog = page.getByTestId('history-forget-dialog');
  await expect(dialog).toContainText('echo open-me-later');
  // Cancel has the focus: Enter keeps the record.
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(results(page)).toHaveCount(1);
  await page.keyboard.press('Shift+Delete');
  await page.getByTestId('history-forget-confirm').click();
  await expect(page.getByTestId('history-notice')).toContainText('Forgotten');
  await expect(results(page)).toHaveCount(0);
  // Searched again, it is gone from the database too.
  await page.getByTestId('history-search-input').fill('open-me-');
  await expect(page.getByTestId('history-empty')).toHaveText('No command in the history matches.');
  await expect(page.getByTestId('history-search-input')).toBeFocused();
});

test('[history] search_key in config.toml moves the overlay to another key', async ({ page }) => {
  home = makeHome();
  const { pane } = await open(page, '[history]\nsearch_key = "Alt+H"\n');
  await runCommand(page, pane, 'echo keyed-search');
  await pane.click();
  // The palette shows the key in use.
  await page.keyboard.press('Control+Shift+P');
  await page.keyboard.type('search history');
  await expect(page.locator('[data-testid="palette-item"][data-action-id="history.search"] kbd')).toHaveText('Alt+H');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('command-palette')).toHaveCount(0);
  await page.keyboard.press('Alt+H');
  await expect(page.getByTestId('history-search')).toBeVisible();
  await expect(page.getByTestId('history-search-input')).toBeFocused();
  await page.keyboard.type('keyed-se');
  await expect(results(page)).toHaveCount(1);
});

test('a history database that cannot be opened is named in the overlay, not shown as an empty list', async ({ page }) => {
  home = makeHome();
  // A directory where the database file should be.
  mkdirSync(join(home, '.local/share/tandem/history.sqlite'), { recursive: true });
  const { pane } = await open(page);
  await openOverlay(page, pane);
  await expect(page.getByTestId('history-error')).toContainText(/The history could not search: .*history\.sqlite could not be opened/);
  await expect(page.getByTestId('history-empty')).toHaveCount(0);
});

test('a command run twice shows once with ×2; forgetting it asks about both runs and deletes both', async ({ page }) => {
  home = makeHome();
  const { pane } = await open(page);
  await runCommand(page, pane, 'echo twice-run');
  await runCommand(page, pane, 'echo twice-run');

  await openOverlay(page, pane);
  await page.keyboard.type('twice-run');
  await expect(results(page)).toHaveCount(1);
  await expect(results(page).getByTestId('history-runs')).toHaveText('×2');
  await page.keyboard.press('Shift+Delete');
  const dialog = page.getByTestId('history-forget-dialog');
  await expect(dialog).toContainText('All 2 runs of it');
  await page.getByTestId('history-forget-confirm').click();
  await expect(results(page)).toHaveCount(0);
  await page.getByTestId('history-search-input').fill('twice-ru');
  await expect(page.getByTestId('history-empty')).toHaveText('No command in the history matches.');
});

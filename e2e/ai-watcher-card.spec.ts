import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { openPanel, runCommandTool, typeInPane, useAgentTandem } from './support/aiPanel';
import { makeHome } from './support/tandemServer';
import { blockOf } from './support/uiPage';

// A notify watcher in real Chromium: a failing command the user types fires it, its card shows
// in the AI panel with Run / Dismiss; Run starts the watcher's run in its own shell (a real
// `tandem agent` child), whose step that asks is decided on the card; Close takes it away.

const ai = useAgentTandem();

function failuresWatcher(home: string): void {
  mkdirSync(join(home, '.config/tandem'), { recursive: true });
  writeFileSync(
    join(home, '.config/tandem/watchers.toml'),
    '[[watcher]]\nname = "failures"\ntrigger = "block"\ncommand = "ls /no-such*"\nexit = "!=0"\ndebounce = "0ms"\ninstruction = "# explain the failure"\n',
  );
}

test('a notify watcher: the card, Run, a step that asks decided on the card, Close', async ({ page }) => {
  const home = makeHome();
  failuresWatcher(home);
  const { pane } = await ai.start(page, home);
  ai.model.script([runCommandTool('w1', 'touch from-watcher.txt', 'mark it')], [{ text: 'E2E-WATCHER-DONE' }]);
  const panel = await openPanel(page);
  await typeInPane(page, pane, 'ls /no-such-e2e');

  const card = panel.getByTestId('watcher-card');
  await expect(card).toContainText(/Watcher failures fired: `ls \/no-such-e2e` exited \d+ in pane \d+/);
  await card.getByTestId('watcher-run').click();
  const asking = card.getByTestId('child-approval');
  await expect(asking).toHaveAttribute('data-command', 'touch from-watcher.txt');
  await asking.locator('[data-action="child-allow"]').click();
  await expect(card.getByTestId('child-answer')).toContainText('E2E-WATCHER-DONE');
  expect(existsSync(join(home, 'from-watcher.txt'))).toBe(true);
  // Nothing was typed into the user's pane: its only block is the user's own command.
  await expect(pane.locator('[data-testid="block"]')).toHaveCount(1);
  await expect(blockOf(pane, 'ls /no-such-e2e')).toHaveCount(1);
  await card.getByTestId('watcher-dismiss').click();
  await expect(card).toHaveCount(0);
});

test('the engine keeps the cards: notify cards survive a reload, and one dismissed stays gone after the next', async ({ page }) => {
  const home = makeHome();
  failuresWatcher(home);
  const { pane } = await ai.start(page, home);
  await openPanel(page);
  const card = (command: string) => page.getByTestId('ai-panel').getByTestId('watcher-card').filter({ hasText: command });
  await typeInPane(page, pane, 'ls /no-such-one');
  await expect(card('ls /no-such-one')).toContainText(/Watcher failures fired: `ls \/no-such-one` exited \d+/);
  await typeInPane(page, pane, 'ls /no-such-two');
  await expect(card('ls /no-such-two')).toHaveCount(1);

  await page.reload();
  await openPanel(page);
  await expect(card('ls /no-such-one')).toContainText(/Watcher failures fired: `ls \/no-such-one` exited \d+/);
  await expect(card('ls /no-such-two')).toHaveCount(1);
  await card('ls /no-such-one').getByTestId('watcher-dismiss').click();
  await expect(card('ls /no-such-one')).toHaveCount(0);

  await page.reload();
  await openPanel(page);
  // The cards came back from the engine (the second is there), without the dismissed one.
  await expect(card('ls /no-such-two')).toHaveCount(1);
  await expect(card('ls /no-such-one')).toHaveCount(0);
  await expect(page.getByTestId('watcher-card')).toHaveCount(1);
});

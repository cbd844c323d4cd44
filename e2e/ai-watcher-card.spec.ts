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

test('a notify watcher: the card, Run, a step that asks decided on the card, Close', async ({ page }) => {
  const home = makeHome();
  mkdirSync(join(home, '.config/tandem'), { recursive: true });
  writeFileSync(
    join(home, '.config/tandem/watchers.toml'),
    '[[watcher]]\nname = "failures"\ntrigger = "block"\ncommand = "ls /no-such*"\nexit = "!=0"\ndebounce = "0ms"\ninstruction = "# explain the failure"\n',
  );
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

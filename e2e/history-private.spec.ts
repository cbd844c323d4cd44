import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { firstPane, runCommand } from './support/terminalPage';
import { useTandem } from './support/uiPage';

// Private mode from the palette: the pane says it is private (also after a reload), and what
// ran in it meanwhile never reaches the history database; what ran after it does.

const tandem = useTandem();

async function togglePrivateMode(page: Page): Promise<void> {
  await page.keyboard.press('Control+Shift+P');
  await page.keyboard.type('private mode');
  await page.keyboard.press('Enter');
}

function historyBytes(home: string): string {
  const file = join(home, '.local/share/tandem/history.sqlite');
  return [file, `${file}-wal`].filter((path) => existsSync(path)).map((path) => readFileSync(path, 'latin1')).join('');
}

test('the palette turns private mode on and off; the pane shows it, and nothing it ran meanwhile is stored', async ({ page }) => {
  const { server, pane } = await tandem.start(page);
  await runCommand(page, pane, 'echo ran-before-private');
  await pane.click();
  await togglePrivateMode(page);
  const badge = pane.getByTestId('pane-private');
  await expect(badge).toHaveText('Private');
  await runCommand(page, pane, 'echo ran-while-private');

  // A reloaded window finds the pane still private.
  await page.reload();
  const { pane: again } = await firstPane(page);
  await expect(again.getByTestId('pane-private')).toBeVisible();

  await again.click();
  await togglePrivateMode(page);
  await expect(again.getByTestId('pane-private')).toHaveCount(0);
  await runCommand(page, again, 'echo ran-after-private');

  // Stopping `tandem web` writes what waits and closes the database.
  await server.stop();
  const stored = historyBytes(server.home);
  expect(stored).toContain('echo ran-before-private');
  expect(stored).toContain('echo ran-after-private');
  expect(stored).not.toContain('ran-while-private');
});

import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { repositoryWithLongHistory } from '../test/support/gitRepository';
import { makeHome, startTandem, type TandemServer } from './support/tandemServer';
import { firstPane, runCommand, waitForBuffer } from './support/terminalPage';

/** `git log` quit with `q` (exit 141 from git's SIGPIPE) is shown as quit, not as a red failure. */

let server: TandemServer | undefined;
test.afterEach(async () => {
  await server?.stop();
  server = undefined;
});

test('bash: `git log` quit in its pager is a grey "quit (exit 141)" block; a real failure stays red', async ({ page }) => {
  const home = makeHome();
  repositoryWithLongHistory(join(home, 'repo'), 1_500);
  server = await startTandem({ shell: '/bin/bash', home });
  await page.goto(server.url);
  const { pane, paneId } = await firstPane(page);
  await runCommand(page, pane, 'cd repo');

  await page.keyboard.type('git log');
  await page.keyboard.press('Enter');
  await waitForBuffer(page, paneId, /commit number 1500/);
  await page.keyboard.press('q');
  const quit = pane.locator('[data-testid="block"][data-command="git log"]');
  await expect(quit).toHaveAttribute('data-exit-code', '141');
  await expect(quit).toHaveAttribute('data-status', 'quit');
  await expect(quit.locator('.block__tint')).toHaveCount(0);
  await expect(quit.locator('.block__gutter')).toHaveAttribute('title', /quit \(exit 141\)/);

  const failed = await runCommand(page, pane, 'git log no-such-ref');
  await expect(failed).toHaveAttribute('data-status', 'failure');
});

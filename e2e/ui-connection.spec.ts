import { expect, test } from '@playwright/test';
import { runCommand } from './support/terminalPage';
import { useTandem } from './support/uiPage';

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

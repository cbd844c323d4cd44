import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { probeTerminal, useTandem } from './support/uiPage';

// Saving from the settings dialog edits the user's config.toml in place; a broken file is
// reported with where the problem is.

const tandem = useTandem();

const configPathOf = (home: string) => join(home, '.config/tandem/config.toml');

test('saving settings keeps the comments, order and layout of config.toml; only the changed values change', async ({ page }) => {
  const mine = [
    '# My Tandem setup — keep these notes!',
    '',
    '[terminal]',
    'fontSize = 15      # big enough for the projector',
    '# theme: tried light, went back',
    'theme = "dark"',
    '',
    '[ai]',
    'model = "claude-sonnet-5-5"   # the default, pinned',
    '',
  ].join('\n');
  const { server, paneId } = await tandem.start(page, { configToml: mine });
  await page.getByTestId('open-settings').click();
  const dialog = page.getByTestId('settings-dialog');
  await dialog.locator('input[name="fontSize"]').fill('16');
  await dialog.locator('input[name="aiStepsUsePager"]').check();
  await page.getByTestId('settings-save').click();
  await expect(dialog).toBeHidden();
  await expect.poll(async () => (await probeTerminal(page, paneId)).fontSize).toBe(16);
  expect(readFileSync(configPathOf(server.home), 'utf8')).toBe(
    mine.replace('fontSize = 15 ', 'fontSize = 16 ').replace('# the default, pinned\n', '# the default, pinned\nstepsUsePager = true\n'),
  );
});

test('a refused key is reported with its line', async ({ page }) => {
  await tandem.start(page, { configToml: '# notes\n[terminal]\n\ntheme = "purple"\n' });
  const banner = page.locator('[data-testid="banner"][data-kind="settings-error"]');
  await expect(banner).toContainText('terminal.theme (line 4)');
});

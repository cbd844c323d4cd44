import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
    'font_size = 15      # big enough for the projector',
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
    mine.replace('font_size = 15 ', 'font_size = 16 ').replace('# the default, pinned\n', '# the default, pinned\nsteps_use_pager = true\n'),
  );
});

test('a refused key is reported with its line', async ({ page }) => {
  await tandem.start(page, { configToml: '# notes\n[terminal]\n\ntheme = "purple"\n' });
  const banner = page.locator('[data-testid="banner"][data-kind="settings-error"]');
  await expect(banner).toContainText('terminal.theme (line 4)');
});

test('on a first run, with no config folder yet, a config.toml written by hand applies live and a typo in it is reported', async ({ page }) => {
  const { server, paneId } = await tandem.start(page);
  const configPath = configPathOf(server.home);
  expect(existsSync(join(configPath, '..'))).toBe(false);
  mkdirSync(join(configPath, '..'));
  writeFileSync(configPath, '[terminal]\nfont_family = "DejaVu Sans Mono\n');
  const banner = page.locator('[data-testid="banner"][data-kind="settings-error"]');
  await expect(banner).toContainText(`Could not use ${configPath}: not valid TOML: unclosed quote on line 2`);
  // The path is named once.
  expect((await banner.innerText()).split(configPath).length - 1).toBe(1);
  writeFileSync(configPath, '[terminal]\nfont_size = 18\n');
  await expect.poll(async () => (await probeTerminal(page, paneId)).fontSize).toBe(18);
  await expect(banner).toBeHidden();
});

test('a file with old camelCase keys still works, says so in a notice, and Settings saves it in the new spelling', async ({ page }) => {
  const old = '[terminal]\nfontSize = 17   # mine\n\n[ai]\nstepsUsePager = true\n';
  const { server, paneId } = await tandem.start(page, { configToml: old });
  const notice = page.locator('[data-testid="banner"][data-kind="settings-notice"]');
  await expect(notice).toContainText('terminal.fontSize → font_size, ai.stepsUsePager → steps_use_pager still work');
  expect((await probeTerminal(page, paneId)).fontSize).toBe(17);
  expect(readFileSync(configPathOf(server.home), 'utf8')).toBe(old);
  await page.getByTestId('open-settings').click();
  const dialog = page.getByTestId('settings-dialog');
  await expect(dialog.locator('input[name="aiStepsUsePager"]')).toBeChecked();
  await dialog.locator('select[name="theme"]').selectOption('light');
  await page.getByTestId('settings-save').click();
  await expect(dialog).toBeHidden();
  await expect(notice).toBeHidden();
  expect(readFileSync(configPathOf(server.home), 'utf8')).toBe('[terminal]\nfont_size = 17   # mine\ntheme = "light"\n\n[ai]\nsteps_use_pager = true\n');
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { runCommand } from './support/terminalPage';
import { probeTerminal, useTandem } from './support/uiPage';

const tandem = useTandem();

const configPathOf = (home: string) => join(home, '.config/tandem/config.toml');

test('a config.toml with a syntax error shows a banner naming the file, uses the defaults and is never rewritten', async ({ page }) => {
  // The valid-looking part would change the font size if it were applied.
  const broken = '[terminal]\nfont_size = 22\ntheme = "light\n[shell\n';
  const { server, pane, paneId } = await tandem.start(page, { configToml: broken });
  const configPath = configPathOf(server.home);

  const banner = page.locator('[data-testid="banner"][data-kind="settings-error"]');
  await expect(banner).toBeVisible();
  await expect(banner).toContainText(configPath);
  await expect(banner).toContainText(/not valid TOML/i);

  // Defaults are in effect, and the terminal works.
  const terminal = await probeTerminal(page, paneId);
  expect(terminal.fontSize).toBe(14);
  expect(terminal.scrollback).toBe(10_000);
  await runCommand(page, pane, 'echo still-works');

  // Saving from the settings dialog is refused rather than overwriting the broken file.
  await page.keyboard.press('Control+,');
  const dialog = page.getByTestId('settings-dialog');
  await expect(dialog).toBeVisible();
  await dialog.locator('input[name="fontSize"]').fill('18');
  await page.getByTestId('settings-save').click();
  await expect(page.getByTestId('settings-error')).toContainText(/not saving|fix the file/i);
  await expect(dialog).toBeVisible();
  expect((await probeTerminal(page, paneId)).fontSize).toBe(14);

  expect(readFileSync(configPath, 'utf8')).toBe(broken);
});

test('the settings dialog saves to config.toml and applies live', async ({ page }) => {
  const { server, paneId } = await tandem.start(page);
  await page.getByTestId('open-settings').click();
  const dialog = page.getByTestId('settings-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(configPathOf(server.home));
  await expect(dialog.locator('input[name="scrollback"]')).toHaveValue('10000');

  await dialog.locator('input[name="fontSize"]').fill('17');
  await dialog.locator('input[name="scrollback"]').fill('5000');
  await dialog.locator('input[name="copyOnSelect"]').check();
  await dialog.locator('input[name="includeEnv"]').fill('LANG, KUBECONFIG');
  await page.getByTestId('settings-save').click();
  await expect(dialog).toBeHidden();

  await expect.poll(async () => (await probeTerminal(page, paneId)).fontSize).toBe(17);
  expect((await probeTerminal(page, paneId)).scrollback).toBe(5000);
  const saved = readFileSync(configPathOf(server.home), 'utf8');
  expect(saved).toMatch(/^\[terminal\]$/m);
  expect(saved).toMatch(/^font_size\s*=\s*17$/m);
  expect(saved).toMatch(/^scrollback\s*=\s*5000$/m);
  expect(saved).toMatch(/^copy_on_select\s*=\s*true$/m);
  expect(saved).toMatch(/^\[context\]$/m);
  expect(saved).toMatch(/^include_env\s*=\s*\[\s*"LANG",\s*"KUBECONFIG"\s*\]$/m);

  // An out-of-range value is refused in the dialog (form validation) and nothing is written.
  await page.keyboard.press('Control+,');
  const fontSize = dialog.locator('input[name="fontSize"]');
  await fontSize.fill('500');
  await page.getByTestId('settings-save').click();
  expect(await fontSize.evaluate((input: HTMLInputElement) => input.validity.valid)).toBe(false);
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  expect(readFileSync(configPathOf(server.home), 'utf8')).toBe(saved);
});

test('theme follows the system by default, and light / dark from settings change the terminal background', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  const { server, paneId } = await tandem.start(page);
  const background = async () => (await probeTerminal(page, paneId)).background;
  const light = '#fbfbfa';
  const dark = '#16181d';

  // theme = "system" (default) follows prefers-color-scheme, live.
  await expect.poll(background).toBe(light);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(background).toBe(dark);
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');

  const chooseTheme = async (theme: 'light' | 'dark') => {
    await page.keyboard.press('Control+,');
    const dialog = page.getByTestId('settings-dialog');
    await dialog.locator('select[name="theme"]').selectOption(theme);
    await page.getByTestId('settings-save').click();
    await expect(dialog).toBeHidden();
  };

  await chooseTheme('light');
  await expect.poll(background).toBe(light);
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  expect(readFileSync(configPathOf(server.home), 'utf8')).toMatch(/^theme\s*=\s*"light"$/m);

  await page.emulateMedia({ colorScheme: 'light' });
  await chooseTheme('dark');
  await expect.poll(background).toBe(dark);
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
});

test('every section of the settings dialog is as wide as the dialog, and nothing in it overflows', async ({ page }) => {
  await tandem.start(page);
  for (const width of [1280, 520]) {
    await page.setViewportSize({ width, height: 800 });
    await page.getByTestId('open-settings').click();
    const dialog = page.getByTestId('settings-dialog');
    await expect(dialog).toBeVisible();
    const measured = await dialog.evaluate((form) => ({
      form: { client: form.clientWidth, scroll: form.scrollWidth },
      sections: [...form.querySelectorAll('fieldset')].map((fieldset) => ({
        name: fieldset.querySelector('legend')?.textContent ?? '',
        width: Math.round(fieldset.getBoundingClientRect().width),
        // The rightmost edge of anything inside, against the section's own right edge.
        overflow: Math.max(0, ...[...fieldset.querySelectorAll('input, select, button')].map((field) => field.getBoundingClientRect().right - fieldset.getBoundingClientRect().right)),
      })),
    }));
    const widths = measured.sections.map((section) => section.width);
    expect(measured.sections.map((section) => section.name)).toEqual(['Shell', 'Terminal', 'Session', 'AI', 'Companion', 'Voice']);
    expect(Math.max(...widths) - Math.min(...widths), `${width}px: ${JSON.stringify(measured.sections)}`).toBeLessThanOrEqual(1);
    expect(measured.form.scroll, `${width}px: the dialog scrolls sideways`).toBeLessThanOrEqual(measured.form.client);
    for (const section of measured.sections) expect(section.overflow, `${width}px: ${section.name}`).toBeLessThanOrEqual(0);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  }
});

test('a shell path that cannot be started is refused on save with the reason, and the field says --shell wins', async ({ page }) => {
  const { server } = await tandem.start(page, { configToml: '[shell]\nlogin = true\n' });
  await page.getByTestId('open-settings').click();
  const dialog = page.getByTestId('settings-dialog');
  // `tandem web --shell /usr/bin/bash` (how these tests start it) overrides the setting.
  await expect(dialog.getByTestId('settings-shell-override')).toContainText('started with --shell /usr/bin/bash');
  await dialog.locator('input[name="shellPath"]').fill('/usr/bin/zshh');
  await page.getByTestId('settings-save').click();
  await expect(page.getByTestId('settings-error')).toHaveText('Not saved: the shell path cannot be used: /usr/bin/zshh does not exist.');
  await expect(dialog).toBeVisible();
  expect(readFileSync(configPathOf(server.home), 'utf8')).toBe('[shell]\nlogin = true\n');
  await dialog.locator('input[name="shellPath"]').fill('sh');
  await page.getByTestId('settings-save').click();
  await expect(dialog).toBeHidden();
  expect(readFileSync(configPathOf(server.home), 'utf8')).toBe('[shell]\nlogin = true\npath = "sh"\n');
});

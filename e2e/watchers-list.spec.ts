import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { makeHome } from './support/tandemServer';
import { useTandem } from './support/uiPage';

// The palette's "Watchers" in real Chromium against `tandem web`: the user's watchers.toml is
// listed with a schedule's next run; switching a watcher off goes to the engine and the row
// says off; a file_change watcher that fires updates "Last fired" in the open list.

const tandem = useTandem();

const WATCHERS = `
[[watcher]]
name = "morning"
trigger = "schedule"
cron = "0 9 * * 1-5"
action = "auto"
instruction = "# summarise overnight alerts"

[[watcher]]
name = "notes"
trigger = "file_change"
path = "notes/*.txt"
debounce = "100ms"
max_runs_per_hour = 60
instruction = "# summarise the notes"
`;

test('the watchers list shows the file, switches a watcher off, and updates when one fires', async ({ page }) => {
  const home = makeHome();
  mkdirSync(join(home, '.config/tandem'), { recursive: true });
  mkdirSync(join(home, 'notes'));
  writeFileSync(join(home, '.config/tandem/watchers.toml'), WATCHERS);
  await tandem.start(page, { home });

  await page.keyboard.press('Control+Shift+P');
  await page.keyboard.type('watchers');
  await page.keyboard.press('Enter');
  const list = page.getByTestId('watchers-list');
  const morning = list.locator('[data-watcher="morning"]');
  const notes = list.locator('[data-watcher="notes"]');
  await expect(morning).toContainText('cron "0 9 * * 1-5"');
  await expect(morning).toContainText('yours');
  await expect(morning).toContainText('auto');
  await expect(morning.getByTestId('watcher-next-run')).toContainText(/in \d+ (s|min|h|days)\)/);
  await expect(notes.getByTestId('watcher-last-fired')).toHaveText('never since Tandem started');

  await morning.getByTestId('watcher-switch').click();
  await expect(morning.getByTestId('watcher-switch')).toHaveAttribute('aria-checked', 'false');
  await expect(morning.getByTestId('watcher-state')).toHaveText('off');
  await expect(morning.getByTestId('watcher-next-run')).toHaveCount(0);

  // @parcel/watcher subscribes asynchronously: save until a firing shows in the open list.
  let attempt = 0;
  await expect(async () => {
    writeFileSync(join(home, 'notes', 'today.txt'), `attempt ${attempt++}\n`);
    await expect(notes.getByTestId('watcher-last-fired')).toContainText('today.txt', { timeout: 1_500 });
  }).toPass({ timeout: 30_000 });
  await expect(notes.getByTestId('watcher-last-fired')).toContainText(/^(just now|\d+ s ago): /);

  // Closed and opened again, the engine still has it off (the file was not changed).
  await page.keyboard.press('Escape');
  await expect(list).toHaveCount(0);
  await page.keyboard.press('Control+Shift+P');
  await page.keyboard.type('watchers');
  await page.keyboard.press('Enter');
  await expect(morning.getByTestId('watcher-switch')).toHaveAttribute('aria-checked', 'false');
});

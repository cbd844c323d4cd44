import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { openPanel, runCommandTool, typeInPane, useAgentTandem } from './support/aiPanel';
import { makeHome } from './support/tandemServer';

// Browser mode's desktop notifications for watchers, in real Chromium: the Web Notifications
// API, observed through an init script that wraps window.Notification (recording each one
// before the real constructor runs). The permission is the browser context's.

const ai = useAgentTandem();

declare global {
  interface Window {
    __notifications: { title: string; body?: string }[];
    __permissionAsked: number;
  }
}

function failuresWatcher(): string {
  const home = makeHome();
  mkdirSync(join(home, '.config/tandem'), { recursive: true });
  writeFileSync(
    join(home, '.config/tandem/watchers.toml'),
    '[[watcher]]\nname = "failures"\ntrigger = "block"\ncommand = "ls /no-such*"\nexit = "!=0"\ndebounce = "0ms"\nmax_runs_per_hour = 60\ninstruction = "# explain the failure"\n',
  );
  return home;
}

/** Wraps window.Notification: each notification is recorded; `askable` stands in for the browser's own permission prompt. */
async function recordNotifications(page: Page, { askable }: { askable: boolean }): Promise<void> {
  await page.addInitScript((askable) => {
    const Real = window.Notification;
    window.__notifications = [];
    window.__permissionAsked = 0;
    let permission: NotificationPermission = 'default';
    class Recording extends Real {
      constructor(title: string, options?: NotificationOptions) {
        window.__notifications.push({ title, body: options?.body });
        super(title, options);
      }
    }
    if (askable) {
      Object.defineProperty(Recording, 'permission', { get: () => permission });
      Object.defineProperty(Recording, 'requestPermission', {
        value: async () => {
          window.__permissionAsked++;
          permission = 'granted';
          return permission;
        },
      });
    }
    window.Notification = Recording;
  }, askable);
}

const notifications = (page: Page) => page.evaluate(() => window.__notifications);

test('permission granted: one Web Notification per notify firing and one per step that waits, none again after a reload', async ({ page, context }) => {
  await context.grantPermissions(['notifications']);
  await recordNotifications(page, { askable: false });
  const { pane } = await ai.start(page, failuresWatcher());
  ai.model.script([runCommandTool('w1', 'touch notified.txt', 'mark it')], [{ text: 'NOTIFIED-RUN-DONE' }]);
  const panel = await openPanel(page);
  expect(await page.evaluate(() => Notification.permission)).toBe('granted');
  await expect(panel.getByTestId('watcher-notifications-on')).toHaveCount(0);

  await typeInPane(page, pane, 'ls /no-such-first');
  const card = panel.getByTestId('watcher-card');
  await expect(card).toHaveCount(1);
  await expect.poll(() => notifications(page)).toEqual([{ title: 'Watcher failures fired', body: expect.stringMatching(/^`ls \/no-such-first` exited \d+ in pane \d+$/) }]);

  await card.getByTestId('watcher-run').click();
  await expect(card.getByTestId('child-approval')).toHaveAttribute('data-command', 'touch notified.txt');
  await expect.poll(() => notifications(page)).toHaveLength(2);
  expect((await notifications(page))[1]).toEqual({ title: 'Watcher failures waits for you', body: 'touch notified.txt' });

  // A reload brings the cards back without notifying them again; a new firing notifies once.
  await page.reload();
  const reloaded = await openPanel(page);
  await expect(reloaded.getByTestId('child-approval')).toHaveAttribute('data-command', 'touch notified.txt');
  await reloaded.getByTestId('child-approval').locator('[data-action="child-allow"]').click();
  await expect(reloaded.getByTestId('child-answer')).toContainText('NOTIFIED-RUN-DONE');
  await typeInPane(page, pane, 'ls /no-such-second');
  await expect(reloaded.getByTestId('watcher-card').filter({ hasText: 'ls /no-such-second' })).toHaveCount(1);
  await expect.poll(() => notifications(page)).toEqual([{ title: 'Watcher failures fired', body: expect.stringMatching(/^`ls \/no-such-second` exited/) }]);
});

test('permission not yet given: nothing is shown; the first card offers "Turn on notifications", asked only on that click', async ({ page }) => {
  await recordNotifications(page, { askable: true });
  const { pane } = await ai.start(page, failuresWatcher());
  const panel = await openPanel(page);
  await typeInPane(page, pane, 'ls /no-such-before');
  await expect(panel.getByTestId('watcher-card')).toHaveCount(1);
  const turnOn = panel.getByTestId('watcher-notifications-on');
  await expect(turnOn).toHaveText('Turn on notifications for watchers');
  expect(await page.evaluate(() => window.__permissionAsked)).toBe(0);
  expect(await notifications(page)).toEqual([]);

  await turnOn.click();
  await expect(turnOn).toHaveCount(0);
  expect(await page.evaluate(() => window.__permissionAsked)).toBe(1);
  await typeInPane(page, pane, 'ls /no-such-after');
  await expect(panel.getByTestId('watcher-card')).toHaveCount(2);
  await expect.poll(() => notifications(page)).toEqual([{ title: 'Watcher failures fired', body: expect.stringMatching(/^`ls \/no-such-after` exited/) }]);
});

import { appendFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { shellWord, sshUsersSkipReason, startSshServer, type SshServer } from '../test/support/sshServer';
import { blockOf } from './support/uiPage';
import { firstPane, runCommand } from './support/terminalPage';
import { makeHome, removeHome, startTandem, type TandemServer } from './support/tandemServer';

// Where the host shows, in a real browser against `tandem web` with a real bash: `ssh` typed
// into the pane reaches a real sshd on loopback (a test user who has never seen Tandem), and
// the remote blocks, their menu, the status bar and the history overlay name the host; after
// `exit` the status bar is back on this machine. The remote user's startup file names its host
// `db-e2e` (bash's HOSTNAME, which the integration's OSC 7 reports), so it cannot be mistaken
// for this machine, which the loopback server otherwise is.

const decideScript = resolve('assets/shell-integration/ssh/decide.sh');
const skip = sshUsersSkipReason() ?? (existsSync(decideScript) ? undefined : 'the ssh integration (assets/shell-integration/ssh) is not on this branch');
const REMOTE_HOST = 'db-e2e';

let sshd: SshServer | undefined;
let tandem: TandemServer | undefined;
let home: string | undefined;

test.skip(skip !== undefined, skip ?? '');

test.beforeAll(async () => {
  if (skip) return;
  sshd = await startSshServer({ users: [{ shell: '/usr/bin/bash' }] });
  const user = sshd.users[0]!;
  for (const file of ['.profile', '.bashrc']) appendFileSync(join(user.home, file), `HOSTNAME=${REMOTE_HOST}\n`);
});

test.afterAll(async () => {
  await sshd?.stop();
});

test.afterEach(async () => {
  await tandem?.stop();
  tandem = undefined;
  if (home) removeHome(home);
  home = undefined;
});

function statusRemote(page: Page): Locator {
  return page.getByTestId('status-remote');
}

test('a remote shell names its host on its blocks, their menu, the status bar and in the history; exit brings this machine back', async ({ page }) => {
  const user = sshd!.users[0]!.name;
  home = makeHome();
  tandem = await startTandem({ shell: '/usr/bin/bash', home });
  await page.goto(tandem.url);
  const { pane } = await firstPane(page);
  await expect(statusRemote(page)).toHaveCount(0);

  const sshLine = ['ssh', '-F', '/dev/null', ...sshd!.loginArgs(user)].map(shellWord).join(' ');
  await pane.click();
  await page.keyboard.type(sshLine);
  await page.keyboard.press('Enter');
  // The status bar names the remote host once the remote shell reports its prompt.
  await expect(statusRemote(page)).toHaveText(`${user}@${REMOTE_HOST}`, { timeout: 40_000 });
  await expect(page.getByTestId('status-shell')).toHaveText('bash');
  await expect(pane).toHaveAttribute('data-state', 'PROMPT');

  const failed = await runCommand(page, pane, 'cd /tmp && false');
  await expect(failed).toHaveAttribute('data-exit-code', '1');
  await expect(failed).toHaveAttribute('data-host', `${user}@${REMOTE_HOST}`);
  await expect(failed).toHaveClass(/block--remote/);
  await expect(failed.getByTestId('block-host')).toHaveText(`${user}@${REMOTE_HOST}`);
  await expect(failed.getByTestId('block-host')).toBeVisible();
  await expect(failed.locator('.block__gutter')).toHaveAttribute('title', new RegExp(`exit 1 · .* · ${user}@${REMOTE_HOST}:/home/${user}$`));
  // The remote cwd, as it is (not this machine's ~).
  await expect(page.getByTestId('status-cwd')).toHaveText('/tmp');

  const marker = await runCommand(page, pane, 'echo remote-marker-e2e');
  await marker.locator('.block__gutter').hover();
  const menu = marker.getByTestId('block-menu');
  await expect(menu).toBeVisible();
  await expect(menu.getByTestId('block-menu-host')).toHaveText(`on ${REMOTE_HOST} as ${user}`);
  // The pane is on the host the block ran on: it can run again there.
  await expect(menu.getByTestId('block-rerun')).toBeEnabled();

  // The local `ssh` block is this machine's: no host on it.
  const sshBlock = blockOf(pane, sshLine);
  await expect(sshBlock).not.toHaveAttribute('data-host', /./);

  // The history overlay, opened on the remote pane: "This host" is db-e2e, and the row says where it ran.
  await pane.click();
  await page.keyboard.press('Control+Shift+R');
  await expect(page.getByTestId('history-search')).toBeVisible();
  await expect(page.locator('[data-testid="history-chip"][data-chip="host"]')).toHaveAttribute('data-host', REMOTE_HOST);
  await page.keyboard.type('remote-marker-e2e');
  const row = page.getByTestId('history-result').first();
  await expect(row).toHaveAttribute('data-command', 'echo remote-marker-e2e');
  await expect(row).toHaveAttribute('data-host', REMOTE_HOST);
  await expect(row.getByTestId('history-host')).toHaveText(REMOTE_HOST);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('history-search')).toHaveCount(0);

  // Back on this machine: the status bar says so, and the remote block can no longer be rerun from this pane.
  await pane.click();
  await page.keyboard.type('exit');
  await page.keyboard.press('Enter');
  await expect(statusRemote(page)).toHaveCount(0, { timeout: 30_000 });
  await expect(sshBlock).toHaveAttribute('data-exit-code', '0');
  await expect(pane).toHaveAttribute('data-state', 'PROMPT');
  const local = await runCommand(page, pane, 'echo local-marker-e2e');
  await expect(local).not.toHaveAttribute('data-host', /./);
  await expect(local.getByTestId('block-host')).toHaveCount(0);
  await expect(page.getByTestId('status-cwd')).toHaveText('~');

  await marker.locator('.block__gutter').hover();
  await expect(marker.getByTestId('block-rerun')).toBeDisabled();
  await expect(marker.getByTestId('block-rerun')).toHaveAttribute('title', `It ran on ${user}@${REMOTE_HOST}; the pane is on this machine now`);

  // The history overlay on this machine: its own host, and the remote row still names db-e2e.
  await pane.click();
  await page.keyboard.press('Control+Shift+R');
  await expect(page.locator('[data-testid="history-chip"][data-chip="host"]')).not.toHaveAttribute('data-host', REMOTE_HOST);
  await page.keyboard.type('marker-e2e');
  await expect(page.getByTestId('history-result')).toHaveCount(2);
  await expect(page.locator('[data-testid="history-result"][data-command="echo local-marker-e2e"]').getByTestId('history-host')).toHaveCount(0);
  await expect(page.locator('[data-testid="history-result"][data-command="echo remote-marker-e2e"]').getByTestId('history-host')).toHaveText(REMOTE_HOST);
});

import { appendFileSync, chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { blockOf } from './support/uiPage';
import { firstPane, runCommand, waitForBuffer } from './support/terminalPage';
import { makeHome, removeHome, startTandem, type TandemServer } from './support/tandemServer';

// "SSH to Host…" in a real browser against `tandem web` with a real bash. The `ssh` on the
// shell's PATH is a stub in the test HOME that records its argv and exits, so no network is
// needed: what is checked is what the shell ran, typed as the user would have typed it.

let server: TandemServer | undefined;
let home: string | undefined;

test.afterEach(async () => {
  await server?.stop();
  server = undefined;
  if (home) removeHome(home);
  home = undefined;
});

// Tandem's ssh wrapper first asks `ssh -G` whether the line is a plain login (docs/ssh.md); the
// stub cannot answer that, so the wrapper passes each line on untouched, as typed.
const STUB = `#!/bin/sh
[ "$1" = -G ] && exit 1
{ printf 'argv'; for a in "$@"; do printf ' <%s>' "$a"; done; printf '\\n'; } >> "$HOME/ssh-calls"
printf 'stub-ssh got:'; for a in "$@"; do printf ' [%s]' "$a"; done; printf '\\n'
`;

function homeWithSshConfig(): string {
  const made = makeHome();
  mkdirSync(join(made, '.ssh'), { recursive: true });
  writeFileSync(join(made, '.ssh', 'config'), 'Host *\n  ServerAliveInterval 30\n\nHost web1\n  HostName web1.example.com\n  User deploy\n  Port 2222\n\nHost db-main\n  HostName 10.9.8.7\n');
  mkdirSync(join(made, 'bin'), { recursive: true });
  writeFileSync(join(made, 'bin', 'ssh'), STUB);
  chmodSync(join(made, 'bin', 'ssh'), 0o755);
  // A login shell's /etc/profile may set PATH anew: the stub goes first from the rc file too.
  appendFileSync(join(made, '.bashrc'), 'PATH="$HOME/bin:$PATH"\n');
  return made;
}

async function openPicker(page: Page, pane: Locator): Promise<Locator> {
  await pane.click();
  await page.keyboard.press('Control+Shift+P');
  await expect(page.getByTestId('palette-input')).toBeFocused();
  await page.keyboard.type('ssh to host');
  await expect(page.locator('[data-testid="palette-item"][data-action-id="ssh.connect"]')).toHaveText('SSH to Host…');
  await page.keyboard.press('Enter');
  const picker = page.getByTestId('ssh-host-picker');
  await expect(picker).toBeVisible();
  await expect(page.getByTestId('ssh-host-input')).toBeFocused();
  return picker;
}

function sshCalls(): string[] {
  try {
    return readFileSync(join(home!, 'ssh-calls'), 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

test('SSH to Host… lists the config hosts and runs ssh <alias> in a new tab at its first prompt', async ({ page }) => {
  home = homeWithSshConfig();
  server = await startTandem({ shell: '/usr/bin/bash', home, env: { PATH: `${join(home, 'bin')}:${process.env.PATH}` } });
  await page.goto(server.url);
  const { pane } = await firstPane(page);

  const picker = await openPicker(page, pane);
  const items = picker.getByTestId('ssh-host-item');
  await expect(items).toHaveCount(2);
  await expect(items.nth(0)).toHaveAttribute('data-destination', 'web1');
  await expect(items.nth(0)).toContainText('deploy@web1.example.com:2222');
  await expect(items.nth(1)).toHaveAttribute('data-destination', 'db-main');
  await expect(items.nth(1)).toContainText('10.9.8.7');

  // Fuzzy filtering, then Enter on the best match; what was typed is offered last, as a destination of its own.
  await page.keyboard.type('db-m');
  await expect(items).toHaveCount(2);
  await expect(items.nth(0)).toHaveAttribute('data-destination', 'db-main');
  await expect(items.nth(1)).toHaveText('ssh db-mnot in ~/.ssh/config');
  await page.keyboard.press('Enter');
  await expect(picker).toHaveCount(0);

  await expect(page.getByTestId('tab')).toHaveCount(2);
  const sshPane = page.getByRole('tabpanel').getByTestId('pane');
  await expect(sshPane).not.toHaveAttribute('data-pane-id', (await pane.getAttribute('data-pane-id'))!);
  const sshPaneId = (await sshPane.getAttribute('data-pane-id'))!;
  // The shell ran what was typed at its prompt: a block of its own, as if the user had typed it.
  await expect(blockOf(sshPane, 'ssh db-main')).toHaveAttribute('data-exit-code', '0');
  await waitForBuffer(page, sshPaneId, /stub-ssh got: \[db-main\]/);
  expect(sshCalls().at(-1)).toMatch(/ <db-main>( |$)/);
});

test('a destination typed in the picker is offered too, reaches ssh as one argument, and one that is not a destination is refused', async ({ page }) => {
  home = homeWithSshConfig();
  server = await startTandem({ shell: '/usr/bin/bash', home, env: { PATH: `${join(home, 'bin')}:${process.env.PATH}` } });
  await page.goto(server.url);
  const { pane } = await firstPane(page);

  let picker = await openPicker(page, pane);
  await page.keyboard.type('-oProxyCommand=touch$IFS/tmp/pwned');
  const refused = picker.locator('[data-testid="ssh-host-item"][aria-disabled="true"]');
  await expect(refused).toContainText('cannot start with "-"');
  await page.keyboard.press('Enter');
  // Nothing opened: the line cannot be chosen.
  await expect(picker).toBeVisible();
  await expect(page.getByTestId('tab')).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(picker).toHaveCount(0);

  picker = await openPicker(page, pane);
  const typed = "o'neil@$(touch${IFS}x);id|a\\b";
  await page.keyboard.type(typed);
  const offered = picker.locator('[data-testid="ssh-host-item"]').last();
  await expect(offered).toHaveText(`ssh ${typed}not in ~/.ssh/config`);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('tab')).toHaveCount(2);
  const sshPane = page.getByRole('tabpanel').getByTestId('pane');
  const sshPaneId = (await sshPane.getAttribute('data-pane-id'))!;
  await waitForBuffer(page, sshPaneId, /stub-ssh got: \[o'neil@\$\(touch\$\{IFS\}x\);id\|a\\b\]/);
  expect(sshCalls().at(-1)).toMatch(/ <o'neil@\$\(touch\$\{IFS\}x\);id\|a\\b>( |$)/);
  // The shell's history has the line as typed, quoted.
  await expect(blockOf(sshPane, "ssh 'o'\\''neil@$(touch${IFS}x);id|a'\\\\'b'")).toHaveAttribute('data-exit-code', '0');
});

test('tandem ssh typed in a pane opens a new tab of this Tandem that runs ssh with the same arguments', async ({ page }) => {
  home = homeWithSshConfig();
  server = await startTandem({ shell: '/usr/bin/bash', home, env: { PATH: `${join(home, 'bin')}:${process.env.PATH}` } });
  await page.goto(server.url);
  const { pane } = await firstPane(page);

  const command = `${process.execPath} ${fileURLToPath(new URL('../bin/tandem.js', import.meta.url))} ssh -p 2222 db-main`;
  const typed = await runCommand(page, pane, command);
  await expect(typed).toHaveAttribute('data-exit-code', '0');

  await expect(page.getByTestId('tab')).toHaveCount(2);
  const sshPane = page.getByRole('tabpanel').getByTestId('pane');
  const sshPaneId = (await sshPane.getAttribute('data-pane-id'))!;
  await expect(blockOf(sshPane, 'ssh -p 2222 db-main')).toHaveAttribute('data-exit-code', '0');
  await waitForBuffer(page, sshPaneId, /stub-ssh got: \[-p\] \[2222\] \[db-main\]/);
  expect(sshCalls().at(-1)).toMatch(/^argv <-p> <2222> <db-main>/);
});

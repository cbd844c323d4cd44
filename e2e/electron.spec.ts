import { _electron as electron, expect, test } from '@playwright/test';
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeHome, removeHome } from './support/tandemServer';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const distPath = process.env.ELECTRON_OVERRIDE_DIST_PATH;
/** What `npm run dist:e2e` packs: the app as shipped, with the --inspect fuse on for Playwright. */
const packagedExecutable = join(root, 'dist/linux-unpacked/tandem');
/** A fuse that is on, as the wire stores it (@electron/fuses' FuseState.ENABLE, '1'). */
const FUSE_ON = 0x31;

function electronExecutable(): string | undefined {
  if (!distPath) return undefined;
  const pathFile = join(root, 'node_modules/electron/path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : 'electron';
  const executable = join(distPath, relative);
  return existsSync(executable) ? executable : undefined;
}

function isElf(file: string): boolean {
  const head = Buffer.alloc(4);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, head, 0, 4, 0);
  } finally {
    closeSync(fd);
  }
  return head.equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46]));
}

/** Why the packaged app cannot be driven here, or undefined when it can. */
async function packagedSkipReason(): Promise<string | undefined> {
  const how = 'run `npm run dist:e2e` with ELECTRON_OVERRIDE_DIST_PATH set to pack one';
  if (!existsSync(packagedExecutable)) return `Skipped: no packaged app in dist/linux-unpacked (${how}).`;
  if (!isElf(packagedExecutable)) return `Skipped: dist/linux-unpacked/tandem is not an Electron binary (${how}).`;
  const fuses = (await getCurrentFuseWire(packagedExecutable).catch(() => undefined)) as unknown as Record<number, number> | undefined;
  if (!fuses) return `Skipped: dist/linux-unpacked/tandem has no Electron fuse wire (${how}).`;
  if (fuses[FuseV1Options.EnableNodeCliInspectArguments] !== FUSE_ON) {
    return `Skipped: dist/linux-unpacked was packed without TANDEM_PACKAGE_FOR_TESTS=1, so Playwright cannot attach to it (${how}).`;
  }
  return undefined;
}

/** Opens the app, checks the window's hardening, and runs a command in its first pane. */
async function opensHardenedWindowWithBlocks(executablePath: string, args: string[]): Promise<void> {
  const home = makeHome();
  const app = await electron.launch({
    executablePath,
    args,
    env: { ...process.env, HOME: home, SHELL: '/bin/bash', XDG_CONFIG_HOME: join(home, '.config'), XDG_STATE_HOME: join(home, '.local/state') },
  });
  try {
    const window = await app.firstWindow();
    const prefs = await app.evaluate(({ BrowserWindow }) => {
      const contents = BrowserWindow.getAllWindows()[0]!.webContents;
      const preferences = (contents as unknown as { getLastWebPreferences(): Record<string, unknown> }).getLastWebPreferences();
      return { contextIsolation: preferences.contextIsolation, sandbox: preferences.sandbox, nodeIntegration: preferences.nodeIntegration };
    });
    expect(prefs).toEqual({ contextIsolation: true, sandbox: true, nodeIntegration: false });
    expect(await window.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined');
    const pane = window.getByTestId('pane').first();
    await expect(pane).toHaveAttribute('data-integration', 'on');
    await pane.click();
    await window.keyboard.type('echo from-electron');
    await window.keyboard.press('Enter');
    await expect(pane.locator('[data-testid="block"][data-command="echo from-electron"]')).toHaveAttribute('data-exit-code', '0');
  } finally {
    await app.close();
    removeHome(home);
  }
}

test.describe('Electron app', () => {
  test.skip(!electronExecutable(), 'Skipped: no Electron binary here (set ELECTRON_OVERRIDE_DIST_PATH to an Electron build to run it).');

  test('opens a hardened window whose first pane reaches a prompt and makes blocks', async () => {
    await opensHardenedWindowWithBlocks(electronExecutable()!, [root]);
  });

  test('the packaged app (dist/linux-unpacked) opens a hardened window whose first pane makes blocks', async () => {
    const reason = await packagedSkipReason();
    // Said out loud (the list reporter shows no skip reasons), so a green run is never
    // mistaken for a tested package.
    if (reason) console.log(`Packaged Electron e2e: ${reason}`);
    test.skip(reason !== undefined, reason);
    // The packaged app loads its own resources/app.asar: no app path on the command line.
    await opensHardenedWindowWithBlocks(packagedExecutable, []);
  });
});

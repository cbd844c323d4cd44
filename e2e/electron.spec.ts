import { _electron as electron, expect, test } from '@playwright/test';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeHome, removeHome } from './support/tandemServer';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const distPath = process.env.ELECTRON_OVERRIDE_DIST_PATH;

function electronExecutable(): string | undefined {
  if (!distPath) return undefined;
  const pathFile = join(root, 'node_modules/electron/path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : 'electron';
  const executable = join(distPath, relative);
  return existsSync(executable) ? executable : undefined;
}

test.describe('Electron app', () => {
  test.skip(!electronExecutable(), 'Skipped: no Electron binary here (set ELECTRON_OVERRIDE_DIST_PATH to an Electron build to run it).');

  test('opens a hardened window whose first pane reaches a prompt and makes blocks', async () => {
    const home = makeHome();
    const app = await electron.launch({
      executablePath: electronExecutable()!,
      args: [root],
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
  });
});

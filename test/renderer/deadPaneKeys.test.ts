import { afterEach, describe, expect, it, vi } from 'vitest';
import { importRendererModule } from './support/rendererModule';

type DeadPaneKeysModule = typeof import('../../src/renderer/src/terminal/deadPaneKeys');

/** Loads the module as the page would in the desktop app on `platform`, or in a browser. */
async function load(where: { electron?: string; browserPlatform?: string }) {
  vi.resetModules();
  vi.stubGlobal('window', { ...globalThis, tandemElectron: where.electron ? { platform: where.electron, connect: () => undefined } : undefined });
  vi.stubGlobal('navigator', { platform: where.browserPlatform ?? 'Linux x86_64' });
  return importRendererModule<DeadPaneKeysModule>('terminal/deadPaneKeys.ts');
}

afterEach(() => vi.unstubAllGlobals());

describe('the keys a dead pane names', () => {
  it('in a browser: Enter and Ctrl+D only, never the chord the browser keeps for closing its window', async () => {
    for (const browserPlatform of ['Linux x86_64', 'MacIntel']) {
      const { deadPaneLine, deadPaneCloseKeys } = await load({ browserPlatform });
      expect(deadPaneLine(3)).toBe('[process exited with code 3] — press Enter to restart or Ctrl+D to close');
      expect(deadPaneCloseKeys()).toBe('Ctrl+D');
    }
  });

  it('in the desktop app: the close-pane chord of the platform too', async () => {
    expect((await load({ electron: 'linux' })).deadPaneLine(0)).toBe('[process exited with code 0] — press Enter to restart, Ctrl+D or Ctrl+Shift+W to close');
    expect((await load({ electron: 'darwin' })).deadPaneCloseKeys()).toBe('Ctrl+D or Cmd+W');
  });
});

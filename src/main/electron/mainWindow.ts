import { app, BrowserWindow, nativeTheme } from 'electron';
import { join } from 'node:path';
import { APP_PAGE_URL } from './appFiles';

export interface MainWindowPaths {
  preload: string;
  /** The built renderer (index.html and its assets), served as tandem://app/. */
  rendererDir: string;
}

/** The page to load: electron-vite's dev server in development only, never in a packaged app. */
export function rendererUrl(): string {
  const devServer = app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL;
  return devServer ?? APP_PAGE_URL;
}

/** How often a crashed page is reloaded before Tandem gives up on it (within RELOAD_WINDOW_MS). */
const MAX_RELOADS = 3;
const RELOAD_WINDOW_MS = 60_000;

export function createMainWindow(paths: MainWindowPaths, onPageLost: (reason: string, gaveUp: boolean) => void): BrowserWindow {
  const window = new BrowserWindow({
    width: 1200,
    height: 780,
    minWidth: 420,
    minHeight: 260,
    title: 'Tandem',
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#1e1e1e' : '#ffffff',
    show: false,
    webPreferences: {
      preload: paths.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      spellcheck: false,
      // A packaged build has no DevTools at all; a development build opens them with F12.
      devTools: !app.isPackaged,
    },
  });
  window.once('ready-to-show', () => window.show());
  reloadWhenThePageIsLost(window, onPageLost);
  // The keys the removed menu used to carry that a page cannot provide itself.
  window.webContents.on('before-input-event', (event, input) => {
    if (input.type !== 'keyDown' || input.control || input.alt || input.meta || input.shift) return;
    if (input.key === 'F11') {
      event.preventDefault();
      window.setFullScreen(!window.isFullScreen());
    } else if (input.key === 'F12' && !app.isPackaged) {
      event.preventDefault();
      window.webContents.toggleDevTools();
    }
  });
  void window.loadURL(rendererUrl());
  return window;
}

/**
 * A crashed or killed renderer leaves a blank window; the panes live on in the engine, so
 * a reload reattaches them. A page that keeps dying is not reloaded in a loop.
 */
function reloadWhenThePageIsLost(window: BrowserWindow, onPageLost: (reason: string, gaveUp: boolean) => void): void {
  const reloads: number[] = [];
  window.webContents.on('render-process-gone', (_event, details) => {
    if (details.reason === 'clean-exit' || window.isDestroyed()) return;
    const now = Date.now();
    while (reloads.length > 0 && now - reloads[0]! > RELOAD_WINDOW_MS) reloads.shift();
    const gaveUp = reloads.length >= MAX_RELOADS;
    onPageLost(details.reason, gaveUp);
    if (gaveUp) return;
    reloads.push(now);
    void window.loadURL(rendererUrl());
  });
}

export function defaultWindowPaths(mainDir: string): MainWindowPaths {
  return { preload: join(mainDir, '../preload/index.cjs'), rendererDir: join(mainDir, '../renderer') };
}

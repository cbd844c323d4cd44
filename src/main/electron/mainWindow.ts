import { app, BrowserWindow, nativeTheme } from 'electron';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface MainWindowPaths {
  preload: string;
  indexHtml: string;
}

/** The page to load: electron-vite's dev server in development only, never in a packaged app. */
export function rendererUrl(paths: MainWindowPaths): string {
  const devServer = app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL;
  return devServer ?? pathToFileURL(paths.indexHtml).href;
}

export function createMainWindow(paths: MainWindowPaths): BrowserWindow {
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
    },
  });
  window.once('ready-to-show', () => window.show());
  void window.loadURL(rendererUrl(paths));
  return window;
}

export function defaultWindowPaths(mainDir: string): MainWindowPaths {
  return { preload: join(mainDir, '../preload/index.cjs'), indexHtml: join(mainDir, '../renderer/index.html') };
}

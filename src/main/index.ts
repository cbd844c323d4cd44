import { app, type BrowserWindow } from 'electron';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Engine } from './engine/engine';
import { hardenElectron } from './electron/hardening';
import { installIpcBridge } from './electron/ipcBridge';
import { KeychainKeyStore } from './electron/keychainKeyStore';
import { ownPageMatcher } from './electron/senderCheck';
import { createMainWindow, defaultWindowPaths, rendererUrl } from './electron/mainWindow';
import { tandemPaths } from './settings/paths';
import { version } from './version';

// The Electron entry: one engine, one window, the IPC transport. Everything else lives in
// the plain-Node engine so it can be tested without Electron.
const paths = defaultWindowPaths(dirname(fileURLToPath(import.meta.url)));
const ownPage = rendererUrl(paths);
const isOwnPage = ownPageMatcher(ownPage);

if (!app.requestSingleInstanceLock()) app.quit();
hardenElectron(isOwnPage);

let engine: Engine | undefined;
let mainWindow: BrowserWindow | undefined;

app.whenReady().then(() => {
  engine = new Engine({ version, keys: new KeychainKeyStore(join(tandemPaths(process.env).dataDir, 'api-keys.json')) });
  installIpcBridge(engine, () => mainWindow, isOwnPage);
  mainWindow = createMainWindow(paths);
  mainWindow.on('closed', () => (mainWindow = undefined));
});

app.on('second-instance', () => mainWindow?.focus());

let quitting = false;
app.on('before-quit', (event) => {
  if (quitting || !engine) return;
  event.preventDefault();
  quitting = true;
  void engine.shutdown().finally(() => app.quit());
});

app.on('window-all-closed', () => app.quit());

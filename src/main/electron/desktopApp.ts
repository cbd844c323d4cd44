import { app, dialog, type BrowserWindow } from 'electron';
import { join } from 'node:path';
import { compileOnFirstCall } from '../engine/baselineCompile';
import { Engine } from '../engine/engine';
import { listenForSshTabs } from '../ssh/sshTabEndpoint';
import { tandemPaths } from '../settings/paths';
import { version } from '../version';
import { installApplicationMenu } from './applicationMenu';
import { registerAppScheme, serveAppFiles } from './appProtocol';
import { hardenElectron } from './hardening';
import { installIpcBridge } from './ipcBridge';
import { KeychainKeyStore } from './keychainKeyStore';
import { desktopSurface } from './desktopSurface';
import { createMainWindow, rendererUrl, type MainWindowPaths } from './mainWindow';
import { QuitConfirmation } from './quitConfirmation';
import { sandboxWarnings } from './sandboxWarning';
import { selfCommand } from '../agent/children/selfCommand';
import { ownPageMatcher } from './senderCheck';

/** How long quitting waits for the engine to save the session and end the shells. */
const SHUTDOWN_LIMIT_MS = 5_000;

/** The desktop app: one engine, one window, the IPC transport, and what a first launch needs. */
export function startDesktopApp(paths: MainWindowPaths): void {
  // A second `tandem` hands over to the first (which comes to the front) and leaves at once,
  // before it starts an engine of its own.
  if (!app.requestSingleInstanceLock()) {
    app.exit(0);
    return;
  }
  const isOwnPage = ownPageMatcher(rendererUrl());
  registerAppScheme();
  hardenElectron(isOwnPage);
  installApplicationMenu(process.platform);

  let engine: Engine | undefined;
  let mainWindow: BrowserWindow | undefined;
  const quitConfirmation = new QuitConfirmation(
    () => engine?.quitQuestion(),
    () => mainWindow,
  );

  const openWindow = (): void => {
    const window = createMainWindow(paths, (reason, gaveUp) => {
      engine?.log.error('window', `the window's page was lost (${reason})${gaveUp ? '; not reloading it again' : '; reloading it'}`);
      if (!gaveUp) return;
      dialog.showErrorBox('Tandem', `Tandem's window stopped working (${reason}) several times in a minute. Tandem will close; your session is saved.`);
      quitConfirmation.skip();
      app.quit();
    });
    mainWindow = window;
    // Closing the window ends every pane (the app quits with it): ask first when programs run.
    window.on('close', (event) => {
      if (!quitConfirmation.mayClose(() => window.close())) event.preventDefault();
    });
    window.on('closed', () => (mainWindow = undefined));
  };

  app
    .whenReady()
    .then(() => {
      serveAppFiles(paths.rendererDir);
      compileOnFirstCall();
      engine = new Engine({
        version,
        keys: new KeychainKeyStore(join(tandemPaths(process.env).dataDir, 'api-keys.json')),
        hostWarnings: sandboxWarnings((name) => app.commandLine.hasSwitch(name), process.env),
        electron: desktopSurface(() => mainWindow),
        selfCommand: selfCommand(),
      });
      installIpcBridge(engine, () => mainWindow, isOwnPage);
      openWindow();
      // `tandem ssh` opens its tab here; without the socket it connects in its own terminal.
      const running = engine;
      listenForSshTabs(running.paths.stateDir, running).catch((error: unknown) => running.log.warning('engine', 'tandem ssh cannot reach this engine', error));
    })
    .catch((error: unknown) => failToStart(error));

  app.on('second-instance', () => {
    if (!mainWindow) {
      if (engine) openWindow();
      return;
    }
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.show();
    mainWindow.focus();
  });

  let quitting = false;
  app.on('before-quit', (event) => {
    if (quitting || !engine) return;
    // Quitting (Cmd+Q, the dock) ends the panes before any window closes: ask here first.
    event.preventDefault();
    if (!quitConfirmation.mayClose(() => app.quit())) return;
    quitting = true;
    const limit = new Promise<void>((resolve) => setTimeout(resolve, SHUTDOWN_LIMIT_MS).unref());
    void Promise.race([engine.shutdown(), limit])
      .catch((error: unknown) => console.error(`tandem: could not save the session: ${String(error)}`))
      .finally(() => app.quit());
  });

  app.on('window-all-closed', () => app.quit());
}

/** A start that failed says why and leaves, instead of holding the single-instance lock windowless. */
function failToStart(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  console.error(`tandem: could not start: ${error instanceof Error && error.stack ? error.stack : message}`);
  try {
    dialog.showErrorBox('Tandem could not start', message);
  } finally {
    app.exit(1);
  }
}

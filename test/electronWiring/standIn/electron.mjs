// A stand-in for the `electron` module, the one thing absent here. It records what the app
// asks of Electron and plays Electron's part (events, ports, page loads) where the app relies
// on it; everything behind it (engine, shells, preload, renderer transport) is real.
import { EventEmitter } from 'node:events';
import { MessageChannel } from 'node:worker_threads';
import { Page } from './page.mjs';
import { world } from './world.mjs';

function failIfAsked(what) {
  if (world.failing.has(what)) throw new Error(`stand-in: ${what} failed`);
}

class StandInApp extends EventEmitter {
  get isPackaged() {
    return world.packaged;
  }
  commandLine = { hasSwitch: (name) => world.switches.has(name) };
  requestSingleInstanceLock() {
    world.record('app.requestSingleInstanceLock');
    return !world.lockTaken;
  }
  enableSandbox() {
    world.record('app.enableSandbox');
  }
  whenReady() {
    return world.ready;
  }
  quit() {
    world.record('app.quit');
    let prevented = false;
    this.emit('before-quit', { preventDefault: () => (prevented = true) });
    if (prevented) return;
    // As in Electron, a window that refuses to close (its 'close' event prevented) cancels the quit.
    for (const window of [...world.windows]) {
      if (window.isDestroyed()) continue;
      if (!window.mayClose()) {
        world.record('app.quit cancelled');
        return;
      }
      window.destroyForQuit();
    }
    world.finish(0);
  }
  exit(code = 0) {
    world.record('app.exit', code);
    world.finish(code);
  }
}
export const app = new StandInApp();

let nextWebContentsId = 1;

class StandInWebContents extends EventEmitter {
  constructor(window) {
    super();
    this.id = nextWebContentsId++;
    this.window = window;
    this.mainFrame = { url: '', isMainFrame: true };
    this.page = undefined;
    this.windowOpenHandler = undefined;
    this.devToolsToggles = 0;
    this.portsPosted = 0;
    this.destroyed = false;
  }
  getURL() {
    return this.mainFrame.url;
  }
  isDestroyed() {
    return this.destroyed;
  }
  setWindowOpenHandler(handler) {
    this.windowOpenHandler = handler;
  }
  toggleDevTools() {
    this.devToolsToggles += 1;
  }
  reload() {
    void this.load(this.mainFrame.url);
  }
  /** Main → page IPC with transferred ports (ipcRenderer.on listeners in the preload). */
  postMessage(channel, message, ports = []) {
    this.portsPosted += ports.length;
    this.page?.deliverIpc(channel, message, ports);
  }
  async load(url) {
    this.page?.unload();
    // A new document has a new main frame: the old one is gone with its page.
    this.mainFrame = { url, isMainFrame: true };
    this.page = new Page(this, url);
    await this.page.loaded;
    this.window.emit('ready-to-show');
    this.emit('did-finish-load');
  }
}

export class BrowserWindow extends EventEmitter {
  constructor(options) {
    super();
    failIfAsked('BrowserWindow');
    this.options = options;
    this.webContents = new StandInWebContents(this);
    this.minimized = false;
    this.fullScreen = false;
    this.shown = false;
    this.focused = false;
    this.destroyed = false;
    world.windows.push(this);
    world.record('new BrowserWindow');
    app.emit('web-contents-created', {}, this.webContents);
  }
  static getAllWindows() {
    return world.windows.filter((window) => !window.destroyed);
  }
  loadURL(url) {
    world.record('loadURL', url);
    return this.webContents.load(url);
  }
  isDestroyed() {
    return this.destroyed;
  }
  isMinimized() {
    return this.minimized;
  }
  isFullScreen() {
    return this.fullScreen;
  }
  setFullScreen(on) {
    this.fullScreen = on;
  }
  minimize() {
    this.minimized = true;
    this.focused = false;
  }
  restore() {
    world.record('window.restore');
    this.minimized = false;
  }
  show() {
    this.shown = true;
  }
  focus() {
    world.record('window.focus');
    this.focused = !this.minimized;
  }
  close() {
    world.record('window.close');
    if (!this.mayClose()) return;
    this.destroyForQuit();
    if (BrowserWindow.getAllWindows().length === 0) app.emit('window-all-closed');
  }
  /** The 'close' event: false when a listener prevented it. */
  mayClose() {
    let prevented = false;
    this.emit('close', { preventDefault: () => (prevented = true) });
    return !prevented;
  }
  destroyForQuit() {
    this.webContents.page?.unload();
    this.destroyed = true;
    this.webContents.destroyed = true;
    this.webContents.emit('destroyed');
    this.emit('closed');
  }
  describe() {
    return {
      url: this.webContents.getURL(),
      webPreferences: this.options?.webPreferences,
      minimized: this.minimized,
      fullScreen: this.fullScreen,
      shown: this.shown,
      focused: this.focused,
      destroyed: this.destroyed,
      devToolsToggles: this.webContents.devToolsToggles,
      portsPosted: this.webContents.portsPosted,
    };
  }
}

/** Electron's main-process port: an EventEmitter whose 'message' carries `{ data, ports }`. */
class StandInMessagePortMain extends EventEmitter {
  constructor(port) {
    super();
    this.port = port;
    port.on('message', (data) => this.emit('message', { data, ports: [] }));
    port.on('close', () => this.emit('close'));
  }
  postMessage(message) {
    this.port.postMessage(message);
  }
  start() {
    this.port.start();
  }
  close() {
    this.port.close();
  }
}

export class MessageChannelMain {
  constructor() {
    const { port1, port2 } = new MessageChannel();
    this.port1 = new StandInMessagePortMain(port1);
    // The page side gets a plain MessagePort, as Chromium gives the page a DOM MessagePort.
    this.port2 = port2;
  }
}

export const ipcMain = world.ipcMain;

export const Menu = {
  setApplicationMenu(menu) {
    world.record('Menu.setApplicationMenu', menu === null ? null : 'menu');
    world.menu = { set: true, value: menu };
  },
  buildFromTemplate(template) {
    return { template };
  },
  getApplicationMenu() {
    return world.menu.value ?? null;
  },
};

export const dialog = {
  showErrorBox(title, content) {
    world.record('dialog.showErrorBox', title);
    world.dialogs.push({ title, content });
  },
  /** Waits, as the real one does, until the test answers it (the `answerMessageBox` operation). */
  showMessageBox(...args) {
    const options = args.length > 1 ? args[1] : args[0];
    world.record('dialog.showMessageBox', options.message);
    return new Promise((resolve) => world.messageBoxes.push({ options, modalToWindow: args.length > 1, answer: (response) => resolve({ response, checkboxChecked: false }) }));
  },
};

export const nativeTheme = { shouldUseDarkColors: true };

export const protocol = {
  registerSchemesAsPrivileged(schemes) {
    world.record('protocol.registerSchemesAsPrivileged');
    world.schemes.push(...schemes);
  },
  handle(scheme, handler) {
    failIfAsked('protocol.handle');
    world.record('protocol.handle', scheme);
    world.protocolHandlers.set(scheme, handler);
  },
};

/** No usable keychain here (as on a Linux desktop without libsecret). */
export const safeStorage = {
  isEncryptionAvailable: () => false,
  getSelectedStorageBackend: () => 'basic_text',
  encryptString: () => {
    throw new Error('stand-in: no keychain');
  },
  decryptString: () => {
    throw new Error('stand-in: no keychain');
  },
};

export const session = {
  defaultSession: {
    setPermissionRequestHandler(handler) {
      world.permissionRequestHandler = handler;
    },
    setPermissionCheckHandler(handler) {
      world.permissionCheckHandler = handler;
    },
  },
};

export const shell = {
  async openExternal(url) {
    world.openedExternally.push(url);
  },
};

// What the desktop capability takes from Electron (src/main/electron/desktopSurface.ts); these
// tests only need the app to start with them, the capability itself is tested in test/unit/desktop.
let clipboardText = '';
export const clipboard = {
  readText: () => clipboardText,
  writeText(text) {
    clipboardText = text;
  },
};

export const desktopCapturer = { getSources: async () => [] };

export const screen = {
  getAllDisplays: () => [{ id: 1, bounds: { x: 0, y: 0, width: 1920, height: 1080 }, scaleFactor: 1 }],
  getPrimaryDisplay: () => ({ id: 1 }),
};

export class Notification {
  show() {}
}

export default { app, BrowserWindow, MessageChannelMain, ipcMain, Menu, dialog, nativeTheme, protocol, safeStorage, session, shell, clipboard, desktopCapturer, screen, Notification };

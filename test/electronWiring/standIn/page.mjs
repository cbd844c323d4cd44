// A page loaded into a stand-in window: the app's real preload runs in a fresh context with
// the stand-in `contextBridge`/`ipcRenderer`, and the real renderer transport (MessagePort
// channel + EngineConnection, TypeScript loaded through jiti) talks to the engine over the
// port the preload receives. A reload or crash makes a new Page; the old one goes silent.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { createJiti } from 'jiti';
import { world } from './world.mjs';

const jiti = createJiti(import.meta.url);
const rendererTransport = fileURLToPath(new URL('../../../src/renderer/src/transport/', import.meta.url));

/** Just enough of a DOM window for the preload and the transport: messages and timers. */
class PageWindow {
  constructor(page) {
    this.page = page;
    this.listeners = new Map();
  }
  addEventListener(type, listener) {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type).add(listener);
  }
  removeEventListener(type, listener) {
    this.listeners.get(type)?.delete(listener);
  }
  postMessage(data, _targetOrigin, transfer = []) {
    setImmediate(() => {
      if (this.page.unloaded) return;
      for (const listener of [...(this.listeners.get('message') ?? [])]) listener({ data, source: this, ports: transfer });
    });
  }
  setTimeout(callback, delay) {
    return setTimeout(() => {
      if (!this.page.unloaded) callback();
    }, delay);
  }
  clearTimeout(timer) {
    clearTimeout(timer);
  }
}

export class Page {
  constructor(webContents, url) {
    this.webContents = webContents;
    this.url = url;
    this.frame = webContents.mainFrame;
    this.unloaded = false;
    this.window = new PageWindow(this);
    this.ipcListeners = new Map();
    this.receivedPorts = [];
    this.outputs = new Map();
    this.events = [];
    this.waiters = new Set();
    this.connection = undefined;
    this.runPreload(webContents.window.options.webPreferences.preload);
    this.loaded = world.autoStartRenderer ? this.startRenderer() : Promise.resolve();
  }

  runPreload(file) {
    const ipcRenderer = {
      send: (channel, ...args) => {
        if (this.unloaded) return;
        world.ipcMain.emit(channel, { sender: this.webContents, senderFrame: this.frame, ports: [] }, ...args);
      },
      on: (channel, listener) => {
        if (!this.ipcListeners.has(channel)) this.ipcListeners.set(channel, new Set());
        this.ipcListeners.get(channel).add(listener);
      },
    };
    const contextBridge = {
      exposeInMainWorld: (name, api) => {
        this.window[name] = api;
      },
    };
    const electron = { contextBridge, ipcRenderer };
    const module = { exports: {} };
    const sandboxedRequire = (name) => {
      if (name === 'electron') return electron;
      throw new Error(`stand-in: a sandboxed preload cannot require "${name}"`);
    };
    vm.runInNewContext(readFileSync(file, 'utf8'), {
      require: sandboxedRequire,
      module,
      exports: module.exports,
      process: { platform: process.platform },
      window: this.window,
      console,
    }, { filename: file });
  }

  deliverIpc(channel, message, ports) {
    if (this.unloaded) return;
    this.receivedPorts.push(...ports);
    for (const listener of [...(this.ipcListeners.get(channel) ?? [])]) listener({ ports, sender: undefined }, message);
  }

  /** The renderer's transport, as src/renderer/src/transport/openEngineConnection.ts opens it. */
  async startRenderer() {
    globalThis.window = this.window;
    const { electronPortChannelFactory } = await jiti.import(rendererTransport + 'electronPortChannel.ts');
    const { EngineConnection } = await jiti.import(rendererTransport + 'engineConnection.ts');
    const connection = new EngineConnection(electronPortChannelFactory(this.window.tandemElectron));
    this.connection = connection;
    connection.onOutput((paneId, bytes) => {
      this.outputs.set(paneId, (this.outputs.get(paneId) ?? '') + Buffer.from(bytes).toString('utf8'));
      connection.sendAck(paneId, bytes.byteLength);
      this.changed();
    });
    for (const event of ['block.started', 'block.finished', 'pane.state', 'pane.exit', 'pane.notice', 'connection.replaced']) {
      connection.on(event, (payload) => {
        this.events.push({ event, payload });
        this.changed();
      });
    }
    connection.onStatus(() => this.changed());
    connection.start();
  }

  changed() {
    for (const waiter of [...this.waiters]) waiter();
  }

  /** Resolves with `test()`'s first truthy answer, checked now and after every change. */
  waitFor(test, what, timeoutMs = 20_000) {
    return new Promise((resolve, reject) => {
      const check = () => {
        const answer = test();
        if (!answer) return;
        this.waiters.delete(check);
        clearTimeout(timer);
        resolve(answer);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`stand-in page: timed out waiting for ${what}`));
      }, timeoutMs);
      this.waiters.add(check);
      check();
    });
  }

  unload() {
    if (this.unloaded) return;
    this.unloaded = true;
    // A document's ports close with it; the engine side sees its connection end.
    for (const port of this.receivedPorts) port.close();
    this.changed();
  }
}

// What the stand-in Electron has been asked to do, shared by the stand-in module, the pages
// it loads and the control loop the test talks to.
import { EventEmitter } from 'node:events';

export const world = {
  calls: [],
  packaged: process.env.STANDIN_PACKAGED === '1',
  lockTaken: process.env.STANDIN_LOCK === 'taken',
  switches: new Set((process.env.STANDIN_SWITCHES ?? '').split(',').filter(Boolean)),
  failing: new Set((process.env.STANDIN_FAIL ?? '').split(',').filter(Boolean)),
  menu: { set: false, value: undefined },
  windows: [],
  schemes: [],
  protocolHandlers: new Map(),
  permissionRequestHandler: undefined,
  permissionCheckHandler: undefined,
  dialogs: [],
  /** Message boxes shown and not answered yet, oldest first. */
  messageBoxes: [],
  openedExternally: [],
  ipcMain: new EventEmitter(),
  /** Resolved when the control loop says the app is ready. */
  ready: undefined,
  resolveReady: undefined,
  record(name, detail) {
    this.calls.push(detail === undefined ? { name } : { name, detail });
  },
  summary() {
    return {
      calls: this.calls,
      menu: this.menu,
      windows: this.windows.map((window) => window.describe()),
      schemes: this.schemes,
      dialogs: this.dialogs,
      openedExternally: this.openedExternally,
    };
  },
  /** The process ends the way Electron's does: at once, with this code. */
  finish(code) {
    this.record('process-exit', code);
    const done = () => process.exit(code);
    if (process.send && process.connected) process.send({ event: 'exit', code, summary: this.summary() }, done);
    else done();
  },
};
world.ready = new Promise((resolve) => (world.resolveReady = resolve));

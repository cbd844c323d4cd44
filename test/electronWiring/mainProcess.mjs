// The wiring test's main process: Electron's main process played by Node. It loads the
// built Electron entry (out/main/index.js) with the stand-in `electron` module, makes the app
// ready as Electron would, and answers the test's requests over the IPC channel.
import { app } from './standIn/electron.mjs';
import { world } from './standIn/world.mjs';

const builtEntry = new URL('../../out/main/index.js', import.meta.url);

world.autoStartRenderer = process.env.STANDIN_RENDERER !== '0';
// Electron's argv: the executable, then what the launcher passed (switches, the app path
// when started as `electron <app>`, then the user's arguments).
process.argv = ['/opt/Tandem/tandem', ...JSON.parse(process.env.STANDIN_ARGV ?? '[]')];
process.defaultApp = !world.packaged || undefined;

function mainWindow() {
  const window = world.windows.find((candidate) => !candidate.isDestroyed());
  if (!window) throw new Error('there is no window');
  return window;
}

function page() {
  const current = mainWindow().webContents.page;
  if (!current) throw new Error('the window has no page');
  return current;
}

const operations = {
  state: () => world.summary(),
  /** Asks for an engine port from the main frame or an iframe, with or without arguments. */
  ipcConnect: ({ frame, args = [], url }) => {
    const contents = mainWindow().webContents;
    const sender = frame === 'iframe' ? { url: url ?? contents.mainFrame.url, isMainFrame: false } : contents.mainFrame;
    const before = contents.portsPosted;
    world.ipcMain.emit('tandem:connect', { sender: contents, senderFrame: sender, ports: [] }, ...args);
    return { portDelivered: contents.portsPosted > before };
  },
  fetchApp: async ({ url, method = 'GET' }) => {
    const handler = world.protocolHandlers.get(new URL(url).protocol.slice(0, -1));
    if (!handler) throw new Error(`no handler for ${url}`);
    const response = await handler(new Request(url, { method }));
    const body = await response.text();
    return { status: response.status, contentType: response.headers.get('content-type'), csp: response.headers.get('content-security-policy'), body };
  },
  // `mediaTypes`: what a `media` request asks for; its check names one type (Electron's mediaType).
  permission: async ({ permission, isMainFrame, requestingUrl, mediaTypes }) => {
    const contents = mainWindow().webContents;
    const details = { isMainFrame, requestingUrl, ...(mediaTypes ? { mediaTypes } : {}) };
    const checkDetails = { isMainFrame, requestingUrl, ...(mediaTypes?.length === 1 ? { mediaType: mediaTypes[0] } : {}) };
    const request = await new Promise((resolve) => world.permissionRequestHandler(contents, permission, resolve, details));
    const check = world.permissionCheckHandler(contents, permission, requestingUrl ? new URL(requestingUrl).origin : '', checkDetails);
    return { request, check };
  },
  navigate: ({ url }) => {
    let prevented = false;
    mainWindow().webContents.emit('will-navigate', { preventDefault: () => (prevented = true) }, url);
    return { prevented };
  },
  windowOpen: async ({ url }) => {
    const before = world.openedExternally.length;
    const answer = mainWindow().webContents.windowOpenHandler({ url });
    await new Promise((resolve) => setImmediate(resolve));
    return { action: answer.action, openedExternally: world.openedExternally.slice(before) };
  },
  keyDown: ({ key, control = false, shift = false }) => {
    let prevented = false;
    mainWindow().webContents.emit('before-input-event', { preventDefault: () => (prevented = true) }, { type: 'keyDown', key, control, shift, alt: false, meta: false });
    return { prevented, devToolsToggles: mainWindow().webContents.devToolsToggles, fullScreen: mainWindow().fullScreen };
  },
  crashPage: ({ reason }) => {
    mainWindow().webContents.emit('render-process-gone', {}, { reason, exitCode: 1 });
    return {};
  },
  minimize: () => {
    mainWindow().minimize();
    return {};
  },
  secondInstance: () => {
    app.emit('second-instance', {}, ['/opt/Tandem/tandem'], '/');
    return mainWindow().describe();
  },
  closeWindow: () => {
    const window = mainWindow();
    window.close();
    return { destroyed: window.isDestroyed() };
  },
  /** The oldest unanswered message box, once there is one. */
  messageBox: async () => {
    while (world.messageBoxes.length === 0) await new Promise((resolve) => setImmediate(resolve));
    const { options, modalToWindow } = world.messageBoxes[0];
    return { ...options, modalToWindow, open: world.messageBoxes.length };
  },
  answerMessageBox: ({ response }) => {
    const box = world.messageBoxes.shift();
    if (!box) throw new Error('no message box is open');
    box.answer(response);
    return {};
  },
  windowCount: () => ({ open: world.windows.filter((window) => !window.isDestroyed()).length }),
  quit: () => {
    setImmediate(() => app.quit());
    return {};
  },
  pageReady: async () => {
    // The window is made once the app is ready; wait for it rather than for a time.
    while (!world.windows.some((window) => !window.isDestroyed())) await new Promise((resolve) => setImmediate(resolve));
    const current = page();
    await current.loaded;
    await current.waitFor(() => current.connection?.status === 'open', 'the connection to open');
    return { url: current.url, pageNumber: world.calls.filter((call) => call.name === 'loadURL').length };
  },
  request: async ({ method, params }) => {
    try {
      return { result: await page().connection.request(method, params) };
    } catch (error) {
      return { error: error.message, code: error.code };
    }
  },
  type: ({ paneId, text }) => {
    page().connection.sendInput(paneId, text);
    return {};
  },
  waitForOutput: async ({ paneId, text }) => {
    const current = page();
    await current.waitFor(() => (current.outputs.get(paneId) ?? '').includes(text), `"${text}" in pane ${paneId}`);
    return {};
  },
  waitForEvent: async ({ event, where = {} }) => {
    const current = page();
    const matches = (payload) => Object.entries(where).every(([key, value]) => payload[key] === value);
    return current.waitFor(() => current.events.find((entry) => entry.event === event && matches(entry.payload))?.payload, `${event} ${JSON.stringify(where)}`);
  },
};

process.on('message', async ({ id, op, args }) => {
  try {
    const operation = operations[op];
    if (!operation) throw new Error(`unknown operation ${op}`);
    process.send({ id, result: await operation(args ?? {}) });
  } catch (error) {
    process.send({ id, error: error instanceof Error ? error.message : String(error) });
  }
});

await import(builtEntry.href);
// Electron becomes ready once the main script has run.
setImmediate(() => {
  world.record('ready');
  app.emit('ready');
  world.resolveReady();
  process.send?.({ event: 'ready' });
});

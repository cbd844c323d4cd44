import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TerminalMirror } from '../../src/main/blocks/mirror/terminalMirror';
import { tandemPaths } from '../../src/main/settings/paths';
import type { Block } from '../../src/shared/blocks';
import type { PaneRunning } from '../../src/shared/closeQuestion';
import type { HelloResult, PaneInfo } from '../../src/shared/protocol';
import { headlessOf, terminalStateOf } from '../support/terminalStateOf';
import { testHomeEnv } from '../support/testHome';
import { WiringProcess, type StandInOptions } from './wiringProcess';

/**
 * The Electron side's wiring, run under Node: the built out/main/index.js with a stand-in for
 * the `electron` module (test/electronWiring/standIn), the real engine and shells behind it,
 * and the real preload and renderer transport in front. It proves our wiring, not Electron:
 * e2e/electron.spec.ts runs the real thing whenever an Electron binary is supplied.
 */
const running: WiringProcess[] = [];

function start(options?: StandInOptions): WiringProcess {
  const process = new WiringProcess(options);
  running.push(process);
  return process;
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((process) => process.stop()));
});

interface RequestAnswer<T> {
  result?: T;
  error?: string;
  code?: string;
}

async function request<T>(app: WiringProcess, method: string, params: unknown): Promise<T> {
  const answer = await app.call<RequestAnswer<T>>('request', { method, params });
  if (answer.error !== undefined) throw new Error(`${method}: ${answer.error}`);
  return answer.result as T;
}

/** Polls an answer from the app until it holds (each poll is a round trip, never a fixed wait). */
async function waitUntilAsync(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
  }
}

async function openPane(app: WiringProcess): Promise<PaneInfo> {
  await app.call('pageReady');
  return request<PaneInfo>(app, 'pane.create', { cols: 100, rows: 30 });
}

/** Types a command once the shell is at its prompt (`knownAtPrompt`: a re-attached pane said so). */
async function runCommand(app: WiringProcess, paneId: number, command: string, knownAtPrompt = false): Promise<Block> {
  if (!knownAtPrompt) await app.call('waitForEvent', { event: 'pane.state', where: { paneId, state: 'PROMPT' } });
  app.call('type', { paneId, text: `${command}\r` });
  return app.call<Block>('waitForEvent', { event: 'block.finished', where: { paneId, command } });
}

describe('the desktop app under a stand-in Electron', { timeout: 90_000 }, () => {
  it('installs no default menu, hardens the window and loads the page from tandem://app', async () => {
    const app = start();
    await app.call('pageReady');
    const state = await app.call<{ menu: { set: boolean; value: unknown }; windows: { url: string; webPreferences: Record<string, unknown> }[]; schemes: { scheme: string; privileges: Record<string, boolean> }[]; calls: { name: string }[] }>('state');
    expect(state.menu).toEqual({ set: true, value: null });
    // The menu is gone before Electron would install its default one at ready.
    const names = state.calls.map((call) => call.name);
    expect(names.indexOf('Menu.setApplicationMenu')).toBeLessThan(names.indexOf('ready'));
    expect(names).toContain('app.enableSandbox');
    expect(state.windows).toHaveLength(1);
    expect(state.windows[0]!.url).toBe('tandem://app/index.html');
    expect(state.windows[0]!.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webviewTag: false, devTools: true });
    expect(state.schemes).toEqual([{ scheme: 'tandem', privileges: expect.objectContaining({ standard: true, secure: true }) }]);
  });

  it('gives the page an engine port: hello, a pane, keystrokes, output, blocks and a zod rejection all cross it', async () => {
    const app = start();
    const pane = await openPane(app);
    const hello = await request<HelloResult>(app, 'hello', {});
    expect(hello.livePanes.map((live) => live.paneId)).toEqual([pane.paneId]);
    expect(hello.hostWarnings ?? []).toEqual([]);
    const block = await runCommand(app, pane.paneId, 'echo wired-$((6*7))');
    expect(block.exitCode).toBe(0);
    await app.call('waitForOutput', { paneId: pane.paneId, text: 'wired-42' });
    const failed = await runCommand(app, pane.paneId, 'false');
    expect(failed.exitCode).toBe(1);
    const rejected = await app.call<RequestAnswer<unknown>>('request', { method: 'pane.resize', params: { paneId: pane.paneId, cols: 'wide', rows: 10 } });
    expect(rejected.error).toMatch(/^Invalid pane\.resize request: .*expected number/);
    // The connection survives a rejected request.
    expect((await request<HelloResult>(app, 'hello', {})).livePanes).toHaveLength(1);
  });

  it('refuses the handshake from an iframe, from another page and with arguments', async () => {
    const app = start();
    await app.call('pageReady');
    expect(await app.call('ipcConnect', { frame: 'main' })).toEqual({ portDelivered: true });
    expect(await app.call('ipcConnect', { frame: 'iframe' })).toEqual({ portDelivered: false });
    expect(await app.call('ipcConnect', { frame: 'iframe', url: 'https://evil.example/' })).toEqual({ portDelivered: false });
    expect(await app.call('ipcConnect', { frame: 'main', args: ['extra'] })).toEqual({ portDelivered: false });
  });

  it('reloads a crashed page with a new port, the panes survive, and a page that keeps crashing is not reloaded forever', async () => {
    const app = start();
    const pane = await openPane(app);
    await runCommand(app, pane.paneId, 'echo before-crash');
    await app.call('crashPage', { reason: 'crashed' });
    const reloaded = await app.call<{ pageNumber: number }>('pageReady');
    expect(reloaded.pageNumber).toBe(2);
    const hello = await request<HelloResult>(app, 'hello', {});
    expect(hello.livePanes.map((live) => live.paneId)).toEqual([pane.paneId]);
    const attached = await request<PaneInfo>(app, 'pane.attach', { paneId: pane.paneId });
    expect(attached).toMatchObject({ paneId: pane.paneId, state: 'PROMPT' });
    const block = await runCommand(app, pane.paneId, 'echo after-crash', true);
    expect(block.exitCode).toBe(0);

    // Three reloads within a minute; the fourth loss ends the app (after saving) instead.
    await app.call('crashPage', { reason: 'crashed' });
    await app.call('pageReady');
    await app.call('crashPage', { reason: 'oom' });
    await app.call('pageReady');
    await app.call('crashPage', { reason: 'crashed' });
    const report = await app.exited;
    expect(report.code).toBe(0);
    expect(report.summary!.dialogs).toHaveLength(1);
    expect(report.summary!.dialogs[0]!.content).toMatch(/stopped working/);
    expect(report.summary!.calls.filter((call) => call.name === 'loadURL')).toHaveLength(4);
  }, 120_000);

  it('a page that crashed while vim ran re-attaches to vim: its screen and modes come back, and it takes the keys that follow', async () => {
    const app = start();
    const pane = await openPane(app);
    writeFileSync(join(app.home, 'notes.txt'), 'first line\n');
    await runCommand(app, pane.paneId, 'echo before-vim');
    const vim = 'vim.tiny -u NONE -i NONE -N notes.txt';
    app.call('type', { paneId: pane.paneId, text: `${vim}\r` });
    await app.call('waitForOutput', { paneId: pane.paneId, text: '"notes.txt" 1L' });
    app.call('type', { paneId: pane.paneId, text: 'Gotyped before the crash' });
    await app.call('waitForOutput', { paneId: pane.paneId, text: 'typed before the crash' });

    await app.call('crashPage', { reason: 'crashed' });
    await app.call('pageReady');
    const attached = await request<PaneInfo>(app, 'pane.attach', { paneId: pane.paneId });
    // What the reloaded page's terminal gets, in order: the shell screen, then vim's state.
    const restored = new TerminalMirror(pane.cols, pane.rows, 1_000);
    restored.write(attached.snapshot ?? '');
    restored.write(attached.snapshotState ?? '');
    await restored.flushed();
    expect(restored.isAlternateScreen).toBe(true);
    expect(restored.screenText()).toContain('typed before the crash');
    expect(restored.screenText()).toContain('-- INSERT --');
    expect(terminalStateOf(headlessOf(restored)).modes).toMatchObject({ applicationCursorKeysMode: true });

    app.call('type', { paneId: pane.paneId, text: '\x1b:wq\r' });
    await app.call('waitForEvent', { event: 'block.finished', where: { paneId: pane.paneId, command: vim } });
    expect(readFileSync(join(app.home, 'notes.txt'), 'utf8')).toBe('first line\ntyped before the crash\n');
    restored.dispose();
  });

  it('waits for the engine to save the session before it quits', async () => {
    const app = start();
    const pane = await openPane(app);
    await request(app, 'session.save', { tabs: [{ title: 'one', layout: { kind: 'pane', paneId: pane.paneId } }], activeTab: 0 });
    // Output after the last explicit save reaches the file only through the save at quit.
    await runCommand(app, pane.paneId, 'echo typed-after-save-$((5*5))');
    await app.call('waitForOutput', { paneId: pane.paneId, text: 'typed-after-save-25' });
    await app.call('quit');
    const report = await app.exited;
    expect(report.code).toBe(0);
    const saved = JSON.parse(readFileSync(tandemPaths(testHomeEnv(app.home)).sessionFile, 'utf8')) as { panes: { scrollback: string }[] };
    expect(saved.panes[0]!.scrollback).toContain('typed-after-save-25');
    const names = report.summary!.calls.map((call) => call.name);
    expect(names.filter((name) => name === 'app.quit')).toHaveLength(2);
  });

  it('asks before the window closes or the app quits while programs run: Cancel (the default) keeps them, Quit ends them', async () => {
    const app = start();
    const pane = await openPane(app);
    await app.call('waitForEvent', { event: 'pane.state', where: { paneId: pane.paneId, state: 'PROMPT' } });
    app.call('type', { paneId: pane.paneId, text: 'sleep 1000\r' });
    const running = () => request<{ panes: PaneRunning[] }>(app, 'pane.running', { paneIds: [pane.paneId] });
    await waitUntilAsync(async () => (await running()).panes[0]?.programs.join() === 'sleep', 'sleep to run in the pane');

    expect(await app.call('closeWindow')).toEqual({ destroyed: false });
    const box = await app.call<Record<string, unknown>>('messageBox');
    expect(box).toMatchObject({
      message: 'Quit Tandem?',
      detail: 'sleep is running in Tandem. Quitting ends it.',
      buttons: ['Cancel', 'Quit Tandem'],
      defaultId: 0,
      cancelId: 0,
      modalToWindow: true,
      open: 1,
    });
    // Closing again while the question is open asks nothing more.
    expect(await app.call('closeWindow')).toEqual({ destroyed: false });
    expect(await app.call('messageBox')).toMatchObject({ open: 1 });
    await app.call('answerMessageBox', { response: 0 });
    expect(await app.call('windowCount')).toEqual({ open: 1 });
    expect((await running()).panes[0]?.programs).toEqual(['sleep']);

    // Quitting (Cmd+Q) asks before the engine ends anything; Quit Tandem goes on.
    await app.call('quit');
    expect(await app.call('messageBox')).toMatchObject({ message: 'Quit Tandem?', open: 1 });
    expect((await running()).panes[0]?.programs).toEqual(['sleep']);
    await app.call('answerMessageBox', { response: 1 });
    const report = await app.exited;
    expect(report.code).toBe(0);
    expect(report.summary!.windows.every((window) => window.destroyed)).toBe(true);
  });

  it('closes the window at once when only idle shells run', async () => {
    const app = start();
    const pane = await openPane(app);
    await runCommand(app, pane.paneId, 'true');
    expect(await app.call('closeWindow')).toEqual({ destroyed: true });
    const report = await app.exited;
    expect(report.code).toBe(0);
    expect(report.summary!.calls.map((call) => call.name)).not.toContain('dialog.showMessageBox');
  });

  it('says why it could not start and exits instead of holding the lock without a window', async () => {
    const app = start({ failing: ['protocol.handle'] });
    const report = await app.exited;
    expect(report.code).toBe(1);
    expect(report.summary!.dialogs).toEqual([{ title: 'Tandem could not start', content: 'stand-in: protocol.handle failed' }]);
    expect(report.summary!.windows).toHaveLength(0);
  });

  it('a second instance leaves at once; the first restores and focuses its minimised window', async () => {
    const second = start({ lockTaken: true });
    const report = await second.exited;
    expect(report.code).toBe(0);
    expect(report.summary!.windows).toHaveLength(0);
    expect(report.summary!.calls.map((call) => call.name)).not.toContain('Menu.setApplicationMenu');

    const first = start();
    await first.call('pageReady');
    await first.call('minimize');
    const window = await first.call<{ minimized: boolean; focused: boolean; shown: boolean }>('secondInstance');
    expect(window).toMatchObject({ minimized: false, focused: true, shown: true });
  });

  it('has no DevTools in a packaged build; F12 opens them in a development build; F11 is full screen', async () => {
    const packaged = start({ packaged: true });
    await packaged.call('pageReady');
    const state = await packaged.call<{ windows: { webPreferences: Record<string, unknown> }[] }>('state');
    expect(state.windows[0]!.webPreferences.devTools).toBe(false);
    expect(await packaged.call('keyDown', { key: 'F12' })).toEqual({ prevented: false, devToolsToggles: 0, fullScreen: false });
    expect(await packaged.call('keyDown', { key: 'I', control: true, shift: true })).toEqual({ prevented: false, devToolsToggles: 0, fullScreen: false });
    // F11 (the menu's full-screen key) is kept, in every build.
    expect(await packaged.call('keyDown', { key: 'F11' })).toEqual({ prevented: true, devToolsToggles: 0, fullScreen: true });
    expect(await packaged.call('keyDown', { key: 'F11' })).toEqual({ prevented: true, devToolsToggles: 0, fullScreen: false });

    const development = start();
    await development.call('pageReady');
    expect(await development.call('keyDown', { key: 'F12' })).toEqual({ prevented: true, devToolsToggles: 1, fullScreen: false });
  });

  it('warns in hello when Chromium runs without its OS sandbox', async () => {
    const app = start({ packaged: true, argv: ['--no-sandbox'], switches: ['no-sandbox'] });
    await app.call('pageReady');
    const hello = await request<HelloResult>(app, 'hello', {});
    expect(hello.hostWarnings?.map((warning) => warning.key)).toEqual(['sandbox-off']);
  });

  it('serves only the renderer from tandem://app, with its policy; permissions go by the asking frame; no navigation away', async () => {
    const app = start();
    await app.call('pageReady');
    const page = await app.call<{ status: number; contentType: string; csp: string; body: string }>('fetchApp', { url: 'tandem://app/index.html' });
    expect(page.status).toBe(200);
    expect(page.contentType).toMatch(/text\/html/);
    expect(page.csp).toContain("default-src 'none'");
    expect(page.body).toContain('<div id="root">');
    for (const url of ['tandem://app/../main/index.js', 'tandem://app/%2e%2e/main/index.js', 'tandem://other/index.html', 'tandem://app/missing.js']) {
      expect((await app.call<{ status: number }>('fetchApp', { url })).status, url).toBe(404);
    }
    expect((await app.call<{ status: number }>('fetchApp', { url: 'tandem://app/index.html', method: 'POST' })).status).toBe(404);

    const own = 'tandem://app/index.html';
    expect(await app.call('permission', { permission: 'clipboard-read', isMainFrame: true, requestingUrl: own })).toEqual({ request: true, check: true });
    expect(await app.call('permission', { permission: 'clipboard-read', isMainFrame: false, requestingUrl: own })).toEqual({ request: false, check: false });
    expect(await app.call('permission', { permission: 'clipboard-read', isMainFrame: true, requestingUrl: 'https://evil.example/' })).toEqual({ request: false, check: false });
    expect(await app.call('permission', { permission: 'media', isMainFrame: true, requestingUrl: own })).toEqual({ request: false, check: false });
    // The microphone for push-to-talk: audio alone, our page's main frame; never the camera.
    expect(await app.call('permission', { permission: 'media', isMainFrame: true, requestingUrl: own, mediaTypes: ['audio'] })).toEqual({ request: true, check: true });
    expect(await app.call('permission', { permission: 'media', isMainFrame: true, requestingUrl: own, mediaTypes: ['audio', 'video'] })).toEqual({ request: false, check: false });
    expect(await app.call('permission', { permission: 'media', isMainFrame: true, requestingUrl: own, mediaTypes: ['video'] })).toEqual({ request: false, check: false });
    expect(await app.call('permission', { permission: 'media', isMainFrame: false, requestingUrl: own, mediaTypes: ['audio'] })).toEqual({ request: false, check: false });
    expect(await app.call('permission', { permission: 'media', isMainFrame: true, requestingUrl: 'https://evil.example/', mediaTypes: ['audio'] })).toEqual({ request: false, check: false });

    expect(await app.call('navigate', { url: 'https://evil.example/' })).toEqual({ prevented: true });
    expect(await app.call('navigate', { url: own })).toEqual({ prevented: false });
    expect(await app.call('windowOpen', { url: 'https://example.com/docs' })).toEqual({ action: 'deny', openedExternally: ['https://example.com/docs'] });
    expect(await app.call('windowOpen', { url: 'mailto:dev@example.com' })).toEqual({ action: 'deny', openedExternally: ['mailto:dev@example.com'] });
    expect(await app.call('windowOpen', { url: 'file:///etc/passwd' })).toEqual({ action: 'deny', openedExternally: [] });
  });
});

describe('the tandem command inside the packaged app', { timeout: 90_000 }, () => {
  it('routes `policy check` before any window, engine or lock exists', async () => {
    const app = start({ packaged: true, argv: ['policy', 'check', '--', 'rm -rf /'] });
    const report = await app.exited;
    expect(report.code).toBe(0);
    expect(JSON.parse(app.stdout.trim())).toMatchObject({ level: 'red', decision: 'deny' });
    expect(report.summary!.windows).toHaveLength(0);
    const names = report.summary!.calls.map((call) => call.name);
    expect(names).not.toContain('app.requestSingleInstanceLock');
    expect(names).not.toContain('Menu.setApplicationMenu');
  });

  it('routes --version behind the switches a launcher adds, and `electron <app> --version` in development', async () => {
    const packaged = start({ packaged: true, argv: ['--no-sandbox', '--version'] });
    expect((await packaged.exited).code).toBe(0);
    expect(packaged.stdout).toMatch(/^tandem \d+\.\d+\.\d+/);
    const development = start({ argv: ['--inspect=0', '/opt/Tandem/resources/app', '--version'] });
    expect((await development.exited).code).toBe(0);
    expect(development.stdout).toMatch(/^tandem \d+\.\d+\.\d+/);
  });

  it('exits 2 with the usage on an unknown command, and opens no window', async () => {
    const app = start({ packaged: true, argv: ['frobnicate'] });
    const report = await app.exited;
    expect(report.code).toBe(2);
    expect(app.stderr).toMatch(/Unknown command "frobnicate"/);
    expect(report.summary!.windows).toHaveLength(0);
  });

  it('serves `tandem web` without a window until it is stopped', async () => {
    const app = start({ packaged: true, argv: ['--no-sandbox', 'web', '--port', '0', '--no-open'] });
    const url = await new Promise<string>((resolve, reject) => {
      const check = () => {
        const match = /running at (http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(app.stdout);
        if (match) resolve(match[1]!);
      };
      app.child.stdout!.on('data', check);
      app.child.on('exit', () => reject(new Error(`tandem web exited: ${app.stderr}`)));
      check();
    });
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect((await app.call<{ windows: unknown[] }>('state')).windows).toHaveLength(0);
    app.child.kill('SIGTERM');
    expect((await app.exited).code).toBe(0);
  });
});

// The session file's place comes from the same env the stand-in process got.
void join;

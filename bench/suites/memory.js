// 4. Memory per pane: the engine (tandem web process) and the renderer (Chromium), with one
// pane vs N panes, each holding 10,000 lines of scrollback (`seq 1 10000`).
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { focusPane, jsHeapUsed, launchBrowser, openTandem, waitForPrompt } from '../lib/browser.js';
import { EngineClient, atPrompt } from '../lib/engineClient.js';
import { descendantsOf, rssBytes } from '../lib/proc.js';
import { measure } from '../lib/report.js';
import { MB, sleep } from '../lib/stats.js';
import { ROOT } from '../lib/root.js';
import { requireRendererBuild, startTandem } from '../lib/tandem.js';
import { openSecondPane, terminalOptions } from '../lib/tandemUi.js';
import { startReferenceServer } from '../lib/referenceServer.js';

const PANES = 4;
const SETTLE_MS = 1_500;
const COLS = 120;
const ROWS = 40;
const SEQ = Array.from({ length: 10_000 }, (_, i) => `${i + 1}\r\n`).join('');
/** Typed into a pane; its output ends with this line, which the typed command line does not show. */
const FILL = 'seq 1 10000; echo FILL""-DONE';
const perPane = (one, all) => (all - one) / (PANES - 1) / MB;

export async function memory(report) {
  const engine = await measure(report, 'memory: engine', () => engineMemory());
  const headless = await measure(report, 'memory: headless reference', () => headlessMemory(engine?.size ?? { cols: COLS, rows: ROWS }));
  if (engine && headless) {
    report.compare({
      name: `engine RSS per pane (${PANES} vs 1)`,
      value: perPane(engine.one, engine.all),
      unit: 'MB',
      ref: perPane(headless.one, headless.all),
      refName: '@xterm/headless per terminal',
      better: 'lower',
      target: 1.5,
      note:
        `tandem web process VmRSS ${(engine.one / MB).toFixed(0)} → ${(engine.all / MB).toFixed(0)} MB; ` +
        `shells (bash) add ${perPane(engine.shellsOne, engine.shellsAll).toFixed(1)} MB per pane on top; reference: a Node process with N headless terminals, same size and scrollback`,
    });
  }
  const ui = await measure(report, 'memory: Tandem renderer', () => rendererMemory());
  const ref = await measure(report, 'memory: reference renderer', () => referenceRendererMemory(ui?.options ?? { cols: COLS, rows: ROWS }));
  if (ui && ref) {
    report.compare({
      name: `renderer per pane (${PANES} vs 1), RSS`,
      value: perPane(ui.one.rss, ui.all.rss),
      unit: 'MB',
      ref: perPane(ref.one.rss, ref.all.rss),
      refName: 'xterm.js page per terminal',
      better: 'lower',
      target: 1.5,
      note: `Chromium renderer processes' VmRSS after a GC; panes opened by ${ui.how}, ${ui.options.cols}x${ui.options.rows}`,
    });
    report.compare({
      name: `renderer per pane (${PANES} vs 1), JS heap`,
      value: perPane(ui.one.heap, ui.all.heap),
      unit: 'MB',
      ref: perPane(ref.one.heap, ref.all.heap),
      refName: 'xterm.js page per terminal',
      better: 'lower',
      target: 1.5,
      note: 'CDP JSHeapUsedSize after HeapProfiler.collectGarbage (xterm line buffers are typed arrays: mostly outside the JS heap)',
    });
  }
}

async function engineMemory() {
  const tandem = await startTandem();
  let client;
  try {
    client = await EngineClient.connect(tandem);
    await client.request('hello', {});
    const outputs = new Map();
    let wake;
    client.onOutput = (paneId, payload) => {
      outputs.set(paneId, ((outputs.get(paneId) ?? '') + payload.toString('latin1')).slice(-4096));
      wake?.();
    };
    const waitOutput = (paneId, predicate, what) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`engine client: timed out waiting for ${what}`)), 30_000);
        wake = () => {
          if (!predicate(outputs.get(paneId) ?? '')) return;
          clearTimeout(timer);
          wake = undefined;
          resolve();
        };
        wake();
      });
    const fillPane = async () => {
      const pane = await client.request('pane.create', { cols: COLS, rows: ROWS });
      await waitOutput(pane.paneId, atPrompt, 'the prompt');
      outputs.set(pane.paneId, '');
      client.type(pane.paneId, FILL + '\r');
      await waitOutput(pane.paneId, (out) => out.includes('\r\nFILL-DONE\r\n') && atPrompt(out), 'seq to finish');
      return pane;
    };
    const shells = () => descendantsOf(tandem.pid).reduce((sum, pid) => sum + (rssBytes(pid) ?? 0), 0);
    await fillPane();
    await sleep(SETTLE_MS);
    const one = rssBytes(tandem.pid);
    const shellsOne = shells();
    for (let i = 1; i < PANES; i++) await fillPane();
    await sleep(SETTLE_MS);
    return { one, all: rssBytes(tandem.pid), shellsOne, shellsAll: shells(), size: { cols: COLS, rows: ROWS } };
  } finally {
    client?.close();
    await tandem.stop();
  }
}

async function headlessMemory({ cols, rows }) {
  const { stdout } = await promisify(execFile)(process.execPath, [join(ROOT, 'bench/lib/headlessMemory.js'), PANES, cols, rows, 10_000].map(String), { cwd: ROOT });
  return JSON.parse(stdout);
}

async function rendererSnapshot(browser, page) {
  const { jsHeapUsed: heap } = await jsHeapUsed(page);
  await sleep(300);
  const rss = browser.rendererPids().reduce((sum, pid) => sum + (rssBytes(pid) ?? 0), 0);
  return { heap, rss };
}

async function rendererMemory() {
  requireRendererBuild();
  const tandem = await startTandem();
  const browser = await launchBrowser();
  try {
    const { page, paneId } = await openTandem(browser, tandem);
    const options = await terminalOptions(page, paneId);
    const fill = async (id) => {
      await focusPane(page, id);
      await page.evaluate((termId) => window.__bench.arm('fill', termId, 'rowIs', ['FILL-DONE', 4], 30_000), id);
      await page.keyboard.type(FILL);
      await page.keyboard.press('Enter');
      await page.evaluate(() => window.__bench.result('fill'));
      await waitForPrompt(page, id);
    };
    await fill(paneId);
    await sleep(SETTLE_MS);
    const one = await rendererSnapshot(browser, page);
    let how;
    let last = paneId;
    for (let i = 1; i < PANES; i++) {
      // New tabs keep every pane at full size; splits are the fallback.
      const opened = await openSecondPane(page, last, [
        ['Control+Shift+T', 'new tabs (Ctrl+Shift+T)'],
        ['Control+Shift+D', 'splits (Ctrl+Shift+D)'],
      ]);
      how = opened.how;
      last = opened.id;
      await waitForPrompt(page, last);
      await fill(last);
    }
    await sleep(SETTLE_MS);
    const all = await rendererSnapshot(browser, page);
    const lines = await page.evaluate(() => [...window.__tandem.terminals.values()].map((t) => t.buffer.normal.length));
    if (lines.some((n) => n < 10_000)) throw new Error(`a pane holds only ${Math.min(...lines)} lines of scrollback`);
    return { one, all, options, how };
  } finally {
    await browser.close();
    await tandem.stop();
  }
}

async function referenceRendererMemory(options) {
  const server = await startReferenceServer();
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    await page.goto(server.url);
    const { renderer: _r, ...termOptions } = options;
    const add = async () => {
      const id = await page.evaluate((o) => window.__ref.createTerminal(o), termOptions);
      await page.evaluate(([termId, text]) => window.__ref.fill(termId, text), [id, SEQ]);
    };
    await add();
    await sleep(SETTLE_MS);
    const one = await rendererSnapshot(browser, page);
    for (let i = 1; i < PANES; i++) await add();
    await sleep(SETTLE_MS);
    const all = await rendererSnapshot(browser, page);
    return { one, all };
  } finally {
    await browser.close();
    await server.stop();
  }
}

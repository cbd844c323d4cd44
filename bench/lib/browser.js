// Debian's Chromium driven by playwright-core (never a downloaded browser), with a fresh
// profile per launch, and the probe (page/probe.js) injected into every page.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { cmdlineOf, descendantsOf, pidsWithArgument } from './proc.js';
import { ROOT } from './root.js';

export const VIEWPORT = { width: 1200, height: 800 };
/** The Chromium flags the e2e tests use too. */
const CHROMIUM = JSON.parse(readFileSync(join(ROOT, 'e2e/support/chromium.json'), 'utf8'));

function browserPids(profile) {
  const roots = pidsWithArgument(profile);
  return [...new Set([...roots, ...roots.flatMap((pid) => descendantsOf(pid))])];
}

/** `args`: more Chromium flags (the push-to-talk rows' fake microphone). */
export async function launchBrowser({ args = [] } = {}) {
  const profile = mkdtempSync(join(tmpdir(), 'tandem-bench-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? CHROMIUM.defaultPath,
    headless: true,
    args: [
      ...CHROMIUM.args,
      // Keep timers and rendering of a page honest even if the window is considered hidden.
      '--disable-background-timer-throttling',
      '--disable-renderer-backgrounding',
      '--disable-backgrounding-occluded-windows',
      // performance.memory with real (not bucketed) numbers.
      '--enable-precise-memory-info',
      ...args,
    ],
    viewport: VIEWPORT,
  });
  await context.addInitScript({ path: join(ROOT, 'bench/page/probe.js') });
  return {
    context,
    profile,
    /** Every process of this browser (those naming the profile, and their descendants). */
    pids: () => browserPids(profile),
    /** Renderer processes only. */
    rendererPids: () => browserPids(profile).filter((pid) => cmdlineOf(pid).join(' ').includes('--type=renderer')),
    async newPage() {
      const page = await context.newPage();
      page.on('pageerror', (error) => process.env.BENCH_DEBUG && console.error('[page error]', error.message));
      return page;
    },
    async close() {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** JS heap of a page after a full GC, via CDP. */
export async function jsHeapUsed(page) {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('HeapProfiler.enable');
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('Performance.enable');
    const { metrics } = await cdp.send('Performance.getMetrics');
    const get = (name) => metrics.find((m) => m.name === name)?.value;
    return { jsHeapUsed: get('JSHeapUsedSize'), nodes: get('Nodes') };
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

/**
 * Opens the Tandem UI and waits for the first pane and its prompt. Resolves with the pane id
 * and the prompt text (the cursor row up to the cursor).
 */
export async function openTandem(browser, tandem, { timeoutMs = 30_000 } = {}) {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  let step = 'loading the page';
  try {
    await page.goto(tandem.url);
    step = 'a [data-testid=pane]';
    await page.locator('[data-testid=pane]').first().waitFor({ timeout: timeoutMs });
    step = 'window.__tandem.terminals';
    await page.waitForFunction(() => window.__tandem?.terminals?.size > 0, undefined, { timeout: timeoutMs });
    const paneId = await activePaneId(page);
    step = `the "$ " prompt in pane ${paneId}`;
    const prompt = await waitForPrompt(page, paneId, timeoutMs);
    return { page, paneId, prompt };
  } catch (error) {
    const screen = await page
      .evaluate(() => {
        const term = window.__tandem?.terminals?.values().next().value;
        if (!term) return document.body?.innerText.slice(0, 300);
        const b = term.buffer.active;
        return Array.from({ length: 6 }, (_, i) => b.getLine(b.baseY + b.cursorY - 5 + i)?.translateToString(true)).join(' | ');
      })
      .catch(() => '?');
    throw new Error(
      `Tandem UI: waited ${timeoutMs / 1000} s for ${step} (${error.message.split('\n')[0]}); screen: ${JSON.stringify(screen)}` +
        (errors.length ? `; page errors: ${errors.slice(0, 3).join(' / ')}` : '') +
        (tandem.stderr ? `; engine stderr: ${tandem.stderr.slice(-300)}` : ''),
    );
  }
}

/** Id of the focused pane (or the only / first one). */
export async function activePaneId(page) {
  return page.evaluate(() => {
    const panes = [...document.querySelectorAll('[data-testid=pane]')];
    const focused = panes.find((p) => p.contains(document.activeElement)) ?? panes.find((p) => p.dataset.active === 'true') ?? panes[0];
    const id = Number(focused?.dataset.paneId);
    if (Number.isFinite(id) && window.__tandem.terminals.has(id)) return id;
    return [...window.__tandem.terminals.keys()][0];
  });
}

export async function paneIds(page) {
  return page.evaluate(() => [...window.__tandem.terminals.keys()]);
}

/** Waits until the cursor row of pane `id` ends with "$ " (our PS1) and returns that text. */
export async function waitForPrompt(page, id, timeoutMs = 15_000) {
  const handle = await page.waitForFunction(
    (paneId) => {
      const text = window.__bench.cursorText(paneId);
      return text.endsWith('$ ') ? text : false;
    },
    id,
    { timeout: timeoutMs, polling: 50 },
  );
  return handle.jsonValue();
}

/** Puts the keyboard focus into pane `id`'s terminal. */
export async function focusPane(page, id) {
  await page.evaluate((paneId) => window.__bench.terminal(paneId).focus(), id);
}

/**
 * Main-thread time of a page over a window, from CDP Performance metrics: shares of wall
 * time spent in tasks, script, layout and style recalculation.
 */
export async function mainThreadMeter(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const read = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
  let begin;
  return {
    async start() {
      begin = await read();
    },
    async stop() {
      const end = await read();
      await cdp.detach().catch(() => undefined);
      const wall = end.Timestamp - begin.Timestamp;
      const share = (name) => (end[name] - begin[name]) / wall;
      return { wall, task: share('TaskDuration'), script: share('ScriptDuration'), layout: share('LayoutDuration'), style: share('RecalcStyleDuration') };
    },
  };
}

export function describeMainThread(m) {
  const pct = (x) => `${(x * 100).toFixed(0)}%`;
  return `main thread busy ${pct(m.task)} (script ${pct(m.script)}, layout ${pct(m.layout)}, style ${pct(m.style)})`;
}

// What the bench needs from the Tandem UI beyond the test contract ([data-testid=pane],
// window.__tandem.terminals, [data-testid=block]): opening another pane.
import { launchBrowser, openTandem, paneIds, waitForPrompt } from './browser.js';
import { startReferenceServer } from './referenceServer.js';
import { makeHome, requireRendererBuild, startTandem } from './tandem.js';

/** Keybindings that may open another pane, tried in order. */
const NEW_PANE_KEYS = [
  ['Control+Shift+D', 'split (Ctrl+Shift+D)'],
  ['Control+Shift+T', 'new tab (Ctrl+Shift+T)'],
];

/** Opens one more pane via the keyboard; resolves with its id and how it was opened. */
export async function openSecondPane(page, fromPaneId, keys = NEW_PANE_KEYS) {
  const before = await paneIds(page);
  for (const [key, how] of keys) {
    await page.evaluate((id) => window.__bench.terminal(id).focus(), fromPaneId);
    await page.keyboard.press(key);
    try {
      await page.waitForFunction((count) => window.__tandem.terminals.size > count, before.length, { timeout: 5_000 });
    } catch {
      continue;
    }
    const after = await paneIds(page);
    const id = after.find((candidate) => !before.includes(candidate));
    return { id, how };
  }
  throw new Error(`no keybinding opened a second pane (tried ${keys.map((k) => k[0]).join(', ')})`);
}

/** The xterm options of a pane, to configure the reference page the same way. */
export function terminalOptions(page, paneId) {
  return page.evaluate((id) => {
    const term = window.__bench.terminal(id);
    const o = term.options;
    return {
      cols: term.cols,
      rows: term.rows,
      fontFamily: o.fontFamily,
      fontSize: o.fontSize,
      lineHeight: o.lineHeight,
      letterSpacing: o.letterSpacing,
      scrollback: o.scrollback,
      cursorBlink: o.cursorBlink,
      theme: o.theme,
      renderer: document.querySelector('[data-testid=pane] canvas') ? 'canvas/webgl' : 'dom',
    };
  }, paneId);
}

/** A reference page (xterm.js alone, wired to a node-pty bash) configured like the Tandem pane, at its prompt. */
export async function openReferencePane(browser, referenceServer, termOptions) {
  const page = await browser.newPage();
  await page.goto(referenceServer.url);
  const refId = await page.evaluate((o) => window.__ref.createTerminal(o), termOptions);
  await page.evaluate((id) => window.__ref.connectPty(id), refId);
  await waitForPrompt(page, refId);
  return { page, refId };
}

/**
 * Tandem and the reference page in one browser, the reference configured like the Tandem
 * pane, both at a prompt; everything is torn down after `use` returns.
 */
export async function withBothPages(use) {
  requireRendererBuild();
  const home = makeHome();
  const tandemServer = await startTandem();
  const referenceServer = await startReferenceServer({ ptyEnv: home.env, ptyCwd: home.home });
  const browser = await launchBrowser();
  try {
    const { page: tPage, paneId } = await openTandem(browser, tandemServer);
    const { renderer: _renderer, ...termOptions } = await terminalOptions(tPage, paneId);
    const { page: rPage, refId } = await openReferencePane(browser, referenceServer, termOptions);
    return await use({ browser, tPage, paneId, rPage, refId, termOptions });
  } finally {
    await browser.close();
    await referenceServer.stop();
    await tandemServer.stop();
    home.cleanup();
  }
}

import { expect, test, type Locator, type Page } from '@playwright/test';
import { firstPane } from './terminalPage';
import { removeHome, startTandem, type StartOptions, type TandemServer } from './tandemServer';

/** What the UI specs read from a pane's xterm instance (through window.__tandem). */
export interface TerminalProbe {
  viewportY: number;
  baseY: number;
  rows: number;
  fontSize: number;
  scrollback: number;
  background: string | undefined;
  selection: string;
}

export async function probeTerminal(page: Page, paneId: string): Promise<TerminalProbe> {
  return page.evaluate((id) => {
    const tandem = (window as unknown as { __tandem?: { terminals: Map<number, import('@xterm/xterm').Terminal> } }).__tandem;
    const terminal = tandem?.terminals.get(Number(id));
    if (!terminal) throw new Error(`no terminal for pane ${id}`);
    const buffer = terminal.buffer.active;
    return {
      viewportY: buffer.viewportY,
      baseY: buffer.baseY,
      rows: terminal.rows,
      fontSize: terminal.options.fontSize ?? 0,
      scrollback: terminal.options.scrollback ?? 0,
      background: terminal.options.theme?.background,
      selection: terminal.getSelection(),
    };
  }, paneId);
}

/** One `tandem web` per test, stopped and its temp HOME removed afterwards. */
export function useTandem(): {
  /** Starts the server, opens the page and (unless `prompt: false`) waits for the shell's first prompt. */
  start(page: Page, options?: StartOptions & { prompt?: boolean }): Promise<OpenedTandem>;
  server(): TandemServer;
} {
  let server: TandemServer | undefined;
  test.afterEach(async () => {
    const running = server;
    server = undefined;
    if (!running) return;
    await running.stop();
    removeHome(running.home);
  });
  return {
    async start(page, { prompt = true, ...options } = {}) {
      server = await startTandem({ shell: '/usr/bin/bash', ...options });
      await page.goto(server.url);
      // Keys typed while the shell is still loading its startup files can be lost to it;
      // integration reports the first prompt, so firstPane waits for that.
      const { pane, paneId } = await firstPane(page, { prompt });
      return { server, pane, paneId };
    },
    server() {
      if (!server) throw new Error('tandem web is not running');
      return server;
    },
  };
}

export interface OpenedTandem {
  server: TandemServer;
  pane: Locator;
  paneId: string;
}

/** Lets the page use navigator.clipboard (readText/writeText) without a user prompt. */
export async function allowClipboard(page: Page, origin: string): Promise<void> {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
}

export async function readClipboardText(page: Page): Promise<string> {
  return page.evaluate(() => navigator.clipboard.readText());
}

export async function writeClipboardText(page: Page, text: string): Promise<void> {
  await page.evaluate((value) => navigator.clipboard.writeText(value), text);
}

/** The block locator of a command (the last one when it ran several times). */
export function blockOf(pane: Locator, command: string): Locator {
  return pane.locator(`[data-testid="block"][data-command="${command.replace(/["\\]/g, '\\$&')}"]`);
}

/** Waits until the shell of a pane is at its prompt (integration reported PROMPT). */
export async function waitForPrompt(pane: Locator): Promise<void> {
  await expect(pane).toHaveAttribute('data-state', 'PROMPT');
}

/**
 * The text of the rows a block's mark covers on screen (it must be in view), read from the
 * mark's box and the pane's xterm rows. Empty when the mark is hidden (the block has no place).
 */
export async function blockRowTexts(page: Page, paneId: string, block: Locator): Promise<string[]> {
  const box = await block.evaluate((element) => {
    const rect = element.getBoundingClientRect();
    return { top: rect.top, height: rect.height, shown: getComputedStyle(element).display !== 'none' };
  });
  if (!box.shown) return [];
  return page.evaluate(
    ({ id, top, height }) => {
      const tandem = (window as unknown as { __tandem?: { terminals: Map<number, import('@xterm/xterm').Terminal> } }).__tandem;
      const terminal = tandem?.terminals.get(Number(id));
      const screen = terminal?.element?.querySelector('.xterm-screen');
      if (!terminal || !screen) throw new Error(`no terminal on screen for pane ${id}`);
      const cellHeight = screen.clientHeight / terminal.rows;
      const first = Math.round((top - screen.getBoundingClientRect().top) / cellHeight);
      const count = Math.round(height / cellHeight);
      const buffer = terminal.buffer.active;
      const rows: string[] = [];
      for (let row = first; row < first + count; row++) rows.push(buffer.getLine(buffer.viewportY + row)?.translateToString(true) ?? '');
      return rows;
    },
    { id: paneId, ...box },
  );
}

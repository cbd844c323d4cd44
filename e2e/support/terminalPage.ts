import { expect, type Locator, type Page } from '@playwright/test';

/** Text of a pane's whole buffer (scrollback + screen), read from xterm in the page. */
export async function bufferText(page: Page, paneId: string): Promise<string> {
  return page.evaluate((id) => {
    const tandem = (window as unknown as { __tandem?: { terminals: Map<number, import('@xterm/xterm').Terminal> } }).__tandem;
    const terminal = tandem?.terminals.get(Number(id));
    if (!terminal) return '';
    const buffer = terminal.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < buffer.length; y++) lines.push(buffer.getLine(y)?.translateToString(true) ?? '');
    return lines.join('\n');
  }, paneId);
}

export async function terminalSize(page: Page, paneId: string): Promise<{ cols: number; rows: number }> {
  return page.evaluate((id) => {
    const tandem = (window as unknown as { __tandem?: { terminals: Map<number, import('@xterm/xterm').Terminal> } }).__tandem;
    const terminal = tandem!.terminals.get(Number(id))!;
    return { cols: terminal.cols, rows: terminal.rows };
  }, paneId);
}

/**
 * The focused-or-only pane, once its shell has shown a prompt (keys typed earlier may be
 * lost); `prompt: false` for a shell without integration, which may not report one.
 */
export async function firstPane(page: Page, { prompt = true } = {}): Promise<{ pane: Locator; paneId: string }> {
  const pane = page.getByTestId('pane').first();
  await expect(pane).toBeVisible();
  if (prompt) await expect(pane).toHaveAttribute('data-state', 'PROMPT', { timeout: 30_000 });
  const paneId = (await pane.getAttribute('data-pane-id'))!;
  return { pane, paneId };
}

/**
 * Waits until the pane's xterm holds text matching `pattern`. A block's exit code reaches
 * the page before the output it describes is parsed, so read the screen only after this.
 */
export async function waitForBuffer(page: Page, paneId: string, pattern: RegExp): Promise<string> {
  await expect.poll(() => bufferText(page, paneId), { message: `the pane's screen to match ${pattern}` }).toMatch(pattern);
  return bufferText(page, paneId);
}

/**
 * Types a command into the pane as keystrokes and waits for its block to finish. Its
 * output may still be on its way to xterm: wait for it with `waitForBuffer`.
 */
export async function runCommand(page: Page, pane: Locator, command: string): Promise<Locator> {
  // A new split, tab or restarted shell may still be starting; keys typed before its prompt can be lost.
  await expect(pane).toHaveAttribute('data-state', 'PROMPT', { timeout: 30_000 });
  await pane.click();
  await page.keyboard.type(command);
  await page.keyboard.press('Enter');
  const block = pane.locator(`[data-testid="block"][data-command="${cssEscape(command)}"]`).last();
  await expect(block).toHaveAttribute('data-exit-code', /^-?\d+$/);
  return block;
}

function cssEscape(value: string): string {
  return value.replace(/["\\]/g, '\\$&');
}

/** The viewport row (0-based) that shows exactly `text`, from the xterm buffer; -1 when none does. */
export async function screenRowOf(page: Page, paneId: string, text: string): Promise<number> {
  return page.evaluate(
    ({ id, wanted }) => {
      const terminal = (window as unknown as { __tandem: { terminals: Map<number, import('@xterm/xterm').Terminal> } }).__tandem.terminals.get(Number(id))!;
      const buffer = terminal.buffer.active;
      for (let y = buffer.viewportY; y < buffer.viewportY + terminal.rows; y++) {
        if (buffer.getLine(y)?.translateToString(true) === wanted) return y - buffer.viewportY;
      }
      return -1;
    },
    { id: paneId, wanted: text },
  );
}

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

/** The focused-or-only pane, once its shell has shown a prompt with integration reporting in. */
export async function firstPane(page: Page): Promise<{ pane: Locator; paneId: string }> {
  const pane = page.getByTestId('pane').first();
  await expect(pane).toBeVisible();
  const paneId = (await pane.getAttribute('data-pane-id'))!;
  return { pane, paneId };
}

/** Types a command into the pane as keystrokes and waits for its block to finish. */
export async function runCommand(page: Page, pane: Locator, command: string): Promise<Locator> {
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

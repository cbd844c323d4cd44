import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { firstPane, runCommand, waitForBuffer } from './support/terminalPage';
import { blockOf, blockRowTexts, useTandem } from './support/uiPage';

const tandem = useTandem();

/** The rendered rows of the pane's screen (the buffer in front: the alternate one while vim runs). */
async function screenOf(page: Page, paneId: string): Promise<{ alternate: boolean; applicationCursorKeys: boolean; mouse: string; rows: string[] }> {
  return page.evaluate((id) => {
    const terminal = (window as unknown as { __tandem: { terminals: Map<number, import('@xterm/xterm').Terminal> } }).__tandem.terminals.get(Number(id))!;
    const buffer = terminal.buffer.active;
    const rows: string[] = [];
    for (let y = buffer.viewportY; y < buffer.viewportY + terminal.rows; y++) rows.push(buffer.getLine(y)?.translateToString(true) ?? '');
    return { alternate: buffer.type === 'alternate', applicationCursorKeys: terminal.modes.applicationCursorKeysMode, mouse: terminal.modes.mouseTrackingMode, rows };
  }, paneId);
}

/** Records what the pane's xterm sends to the shell from now on (keys and mouse reports). */
async function recordSent(page: Page, paneId: string): Promise<() => Promise<string>> {
  await page.evaluate((id) => {
    const global = window as unknown as { __tandem: { terminals: Map<number, import('@xterm/xterm').Terminal> }; __sent: string };
    global.__sent = '';
    global.__tandem.terminals.get(Number(id))!.onData((data) => (global.__sent += data));
  }, paneId);
  return () => page.evaluate(() => (window as unknown as { __sent: string }).__sent);
}

test('a reload while vim runs shows vim with the edited text; the keys after it reach vim and the shell screen comes back', async ({ page }) => {
  const { server, pane, paneId } = await tandem.start(page);
  const file = join(server.home, 'notes.txt');
  writeFileSync(file, 'first line\n');
  await runCommand(page, pane, 'echo before-vim');
  const vim = "vim.tiny -u NONE -i NONE -N -n -c 'set mouse=a' notes.txt";
  await pane.click();
  await page.keyboard.type(vim);
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await screenOf(page, paneId)).rows.join('\n')).toContain('"notes.txt" 1L');
  await page.keyboard.type('Go');
  await page.keyboard.type('typed before the reload');
  await expect.poll(async () => (await screenOf(page, paneId)).rows.join('\n')).toMatch(/typed before the reload[\s\S]*-- INSERT --/);
  const before = await screenOf(page, paneId);
  expect(before).toMatchObject({ alternate: true, applicationCursorKeys: true, mouse: expect.not.stringMatching(/^none$/) });

  await page.reload();
  const { pane: again, paneId: againId } = await firstPane(page, { prompt: false });
  expect(againId).toBe(paneId);
  // vim's screen as it was, not the shell's: the file, the typed line, insert mode, and the
  // mode vim set for its arrow keys.
  await expect.poll(async () => screenOf(page, paneId)).toEqual(before);

  // The keys that follow go to vim as before: up (in application mode, as vim asked; to the
  // end of line 1), x, Esc; a click is reported to vim (SGR mouse); then :wq.
  const sent = await recordSent(page, paneId);
  await page.evaluate((id) => (window as unknown as { __tandem: { terminals: Map<number, import('@xterm/xterm').Terminal> } }).__tandem.terminals.get(Number(id))!.focus(), paneId);
  await page.keyboard.press('ArrowUp');
  await page.keyboard.type('x');
  await page.keyboard.press('Escape');
  expect(await sent()).toBe('\x1bOAx\x1b');
  await again.click();
  await expect.poll(sent).toMatch(/\x1b\[<0;\d+;\d+M/);
  await page.keyboard.type(':wq');
  await page.keyboard.press('Enter');
  await expect(blockOf(again, vim)).toHaveAttribute('data-exit-code', '0', { timeout: 15_000 });
  expect(readFileSync(file, 'utf8')).toBe('first linex\ntyped before the reload\n');

  // Quitting vim shows the shell's screen as it was, with the block from before in place.
  await waitForBuffer(page, paneId, /^before-vim$/m);
  const after = await screenOf(page, paneId);
  expect(after.alternate).toBe(false);
  expect(after.rows.join('\n')).not.toContain('typed before the reload');
  await expect.poll(async () => (await blockRowTexts(page, paneId, blockOf(again, 'echo before-vim'))).at(-1)).toBe('before-vim');
  await runCommand(page, again, 'echo after-vim');
  await waitForBuffer(page, paneId, /^after-vim$/m);
});

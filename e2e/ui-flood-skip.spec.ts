import { expect, test, type Page } from '@playwright/test';
import { bufferText, runCommand, waitForBuffer } from './support/terminalPage';
import { useTandem } from './support/uiPage';

const tandem = useTandem();

/** Output of the pane the engine did not send: it would have scrolled out before it could be seen. */
function skippedBytes(page: Page, paneId: string): Promise<number> {
  return page.evaluate((id) => (window as unknown as { __tandem: { skippedBytes(paneId: number): number } }).__tandem.skippedBytes(Number(id)), paneId);
}

/** The numbers of the buffer's lines that read "line N of the flood", in buffer order. */
function floodLineNumbers(text: string): number[] {
  return text
    .split('\n')
    .map((line) => /^line (\d+) of the flood$/.exec(line))
    .filter((match) => match !== null)
    .map((match) => Number(match[1]));
}

test('a coloured flood the page cannot keep up with: what it shows is every last line, in order, as if all had been parsed', async ({ page }) => {
  const { pane, paneId } = await tandem.start(page);
  const lines = 400_000;
  const block = await runCommand(page, pane, `seq 1 ${lines} | awk '{printf "\\033[3%dmline %d\\033[0m of the flood\\n", $1 % 8, $1}'`);
  await expect(block).toHaveAttribute('data-exit-code', '0');
  await waitForBuffer(page, paneId, new RegExp(`^line ${lines} of the flood$`, 'm'));

  // Most of it never reached the page, and what it holds is the scrollback full of the last lines, none missing.
  expect(await skippedBytes(page, paneId)).toBeGreaterThan(1_000_000);
  const numbers = floodLineNumbers(await bufferText(page, paneId));
  const scrollback = await page.evaluate((id) => (window as unknown as { __tandem: { terminals: Map<number, { options: { scrollback: number }; rows: number }> } }).__tandem.terminals.get(Number(id))!.options.scrollback, paneId);
  expect(numbers.length).toBeGreaterThan(scrollback);
  expect(numbers.at(-1)).toBe(lines);
  expect(numbers).toEqual(numbers.map((_, index) => lines - numbers.length + 1 + index));

  // The colours are those the lines were printed with.
  const colour = await page.evaluate((id) => {
    const terminal = (window as unknown as { __tandem: { terminals: Map<number, import('@xterm/xterm').Terminal> } }).__tandem.terminals.get(Number(id))!;
    const buffer = terminal.buffer.active;
    for (let row = buffer.length - 1; row >= 0; row--) {
      const line = buffer.getLine(row)!;
      const match = /^line (\d+) of the flood$/.exec(line.translateToString(true));
      if (match) return { number: Number(match[1]), fg: line.getCell(0)!.getFgColor(), after: line.getCell(line.translateToString(true).indexOf(' of'))!.isFgDefault() };
    }
    return undefined;
  }, paneId);
  expect(colour).toEqual({ number: lines, fg: lines % 8, after: true });

  // Find searches what is kept: a line near the end is found, one that scrolled out is not.
  await page.keyboard.press('Control+Shift+F');
  await page.keyboard.type(`line ${lines - 100} of the flood`);
  await expect(page.getByTestId('find-status')).toHaveText('1 of 1');
  await page.getByTestId('find-input').fill('line 17 of the flood');
  await expect(page.getByTestId('find-status')).toHaveText('No results');
  await page.keyboard.press('Escape');

  // The shell goes on as before: the next command, its block and its output.
  const next = await runCommand(page, pane, 'echo after-the-$((2*21))-flood');
  await expect(next).toHaveAttribute('data-exit-code', '0');
  await waitForBuffer(page, paneId, /^after-the-42-flood$/m);
});

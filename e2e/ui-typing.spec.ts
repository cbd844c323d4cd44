import { expect, test, type Page } from '@playwright/test';
import { bufferText, runCommand } from './support/terminalPage';
import { blockOf, useTandem, waitForPrompt } from './support/uiPage';

const tandem = useTandem();

/** The highest number printed alone on a line in pane `paneId` so far. */
async function lastNumber(page: Page, paneId: string): Promise<number> {
  const numbers = (await bufferText(page, paneId))
    .split('\n')
    .filter((line) => /^\d+$/.test(line))
    .map(Number);
  return numbers.length > 0 ? Math.max(...numbers) : 0;
}

test('typing next to a flooding pane: every key lands, and the flood is slowed, never stopped', async ({ page }) => {
  const { pane: left, paneId: leftId } = await tandem.start(page);
  await runCommand(page, left, 'true');
  await page.keyboard.press('Control+Shift+D');
  const right = page.locator(`[data-testid="pane"]:not([data-pane-id="${leftId}"])`);
  await expect(right).toHaveAttribute('data-focused', 'true');
  const rightId = (await right.getAttribute('data-pane-id'))!;
  await waitForPrompt(right);
  await page.keyboard.type('seq 1 1000000000');
  await page.keyboard.press('Enter');
  await expect.poll(() => lastNumber(page, rightId)).toBeGreaterThan(1000);

  await page.keyboard.press('Alt+ArrowLeft');
  await expect(left).toHaveAttribute('data-focused', 'true');
  const typed = 'echo typed-while-the-other-pane-floods';
  // Keys 80 ms apart for three seconds: keystroke-first's typing mode, from the first key on.
  let before = 0;
  for (const [index, character] of [...typed].entries()) {
    await page.keyboard.type(character);
    await page.waitForTimeout(80);
    if (index === 3) before = await lastNumber(page, rightId);
  }
  // The flooding pane kept moving while the keys went in (a slice now and then).
  const during = await lastNumber(page, rightId);
  expect(during).toBeGreaterThan(before);
  await page.keyboard.press('Enter');
  await expect.poll(() => bufferText(page, leftId)).toMatch(/^typed-while-the-other-pane-floods$/m);
  // A second after the last key it runs at full speed again.
  await expect.poll(() => lastNumber(page, rightId), { timeout: 15_000 }).toBeGreaterThan(during + 100_000);

  await right.click();
  await page.keyboard.press('Control+C');
  await expect(blockOf(right, 'seq 1 1000000000')).toHaveAttribute('data-exit-code', '130');
});

test("while the user types, a running block's gutter stands still, and moves again a second after the last key", async ({ page }) => {
  const { pane } = await tandem.start(page);
  await page.keyboard.type('sleep 600');
  await page.keyboard.press('Enter');
  const block = blockOf(pane, 'sleep 600');
  await expect(block).toHaveClass(/block--running/);
  const gutter = block.locator('.block__gutter');
  const animation = () => gutter.evaluate((element) => element.getAnimations({ subtree: true }).map((a) => a.playState).join(',') || 'none');
  await expect.poll(animation).toBe('running');
  // It moves by transform alone, which the compositor runs without the page's main thread.
  const animated = await gutter.evaluate((element) =>
    element.getAnimations({ subtree: true }).flatMap((a) => (a.effect as KeyframeEffect).getKeyframes().flatMap((frame) => Object.keys(frame).filter((key) => !['offset', 'computedOffset', 'easing', 'composite'].includes(key)))),
  );
  expect(new Set(animated)).toEqual(new Set(['transform']));
  // Each look comes right after a key (the keys go to sleep's terminal, which ignores them).
  await expect
    .poll(async () => {
      await page.keyboard.press('x');
      return animation();
    })
    .toBe('paused');
  await expect.poll(animation).toBe('running');

  await page.keyboard.press('Control+C');
  await expect(block).toHaveAttribute('data-exit-code', '130');
});

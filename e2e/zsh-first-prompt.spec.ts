import { expect, test } from '@playwright/test';
import { startTandem, type TandemServer } from './support/tandemServer';
import { bufferText, firstPane, runCommand, waitForBuffer } from './support/terminalPage';

/**
 * A fresh zsh pane starts clean: no inverted `#`/`%` row from zsh's PROMPT_SP mark — also
 * for a pane from a split, which is spawned at an estimated width a column wider than the
 * pane turns out to be. zsh still marks the user's own output that lacks a final newline.
 */

let server: TandemServer | undefined;
test.afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const MARK_ROW = /^[#%]\s*$/;

async function paneIds(page: import('@playwright/test').Page): Promise<string[]> {
  return page.getByTestId('pane').evaluateAll((panes) => panes.map((pane) => pane.getAttribute('data-pane-id') ?? ''));
}

test('zsh: new panes (the first, and splits) start without the PROMPT_SP mark; unterminated output still gets it', async ({ page }) => {
  server = await startTandem({ shell: '/usr/bin/zsh' });
  await page.goto(server.url);
  const { pane, paneId } = await firstPane(page);
  await pane.click();
  await page.keyboard.press('Control+Shift+D');
  await expect.poll(async () => (await paneIds(page)).length).toBe(2);
  await page.keyboard.press('Control+Shift+D');
  await expect.poll(async () => (await paneIds(page)).length).toBe(3);
  for (const id of await paneIds(page)) {
    await expect(page.locator(`[data-testid="pane"][data-pane-id="${id}"]`)).toHaveAttribute('data-state', 'PROMPT');
    const first = (await waitForBuffer(page, id, /# |% /)).split('\n')[0] ?? '';
    expect(first, `pane ${id}'s first row`).not.toMatch(MARK_ROW);
    expect(first, `pane ${id}'s first row`).toMatch(/[#%] $/);
  }

  const main = page.locator(`[data-testid="pane"][data-pane-id="${paneId}"]`);
  await runCommand(page, main, 'printf partial');
  const screen = await waitForBuffer(page, paneId, /^partial[#%]/m);
  expect(screen).toMatch(/^partial[#%]\s*$/m);
  expect(await bufferText(page, paneId)).not.toMatch(/^[#%] *\n/);
});

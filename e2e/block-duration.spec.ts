import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { makeHome, startTandem, type TandemServer } from './support/tandemServer';
import { bufferText, firstPane, runCommand, terminalSize, waitForBuffer } from './support/terminalPage';

/**
 * A slow command's duration label never covers text: with zsh's right prompt at the end of
 * the command row it sits after the command, and a block whose command row a `clear` erased
 * shows no label (it used to float at the top of the pane).
 */

let server: TandemServer | undefined;
test.afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const RPROMPT = '[right-prompt]';

test("zsh: the duration label stays clear of the right prompt, and goes with a cleared command row", async ({ page }) => {
  const home = makeHome();
  writeFileSync(join(home, '.zshrc'), `PROMPT="%n%# "\nRPROMPT="${RPROMPT}"\n`);
  server = await startTandem({ shell: '/usr/bin/zsh', home });
  await page.goto(server.url);
  const { pane, paneId } = await firstPane(page);
  await waitForBuffer(page, paneId, new RegExp(RPROMPT.replace(/[[\]]/g, '\\$&')));

  const slow = await runCommand(page, pane, 'sleep 1.2');
  const label = slow.getByTestId('block-duration');
  await expect(label).toHaveText(/^1\.\d\d s$/);
  await expect(label).toBeVisible();
  const screen = (await pane.locator('.xterm-screen').boundingBox())!;
  const { cols } = await terminalSize(page, paneId);
  const cellWidth = screen.width / cols;
  // zsh draws RPROMPT so that it ends one cell before the right edge.
  const rightPromptLeft = screen.x + (cols - 1 - RPROMPT.length) * cellWidth;
  const row = (await bufferText(page, paneId)).split('\n').find((line) => line.includes('sleep 1.2') && line.includes(RPROMPT))!;
  const commandRight = screen.x + (row.indexOf('sleep 1.2') + 'sleep 1.2'.length) * cellWidth;
  const box = (await label.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(rightPromptLeft);
  expect(box.x).toBeGreaterThanOrEqual(commandRight - 1);

  const cleared = await runCommand(page, pane, 'sleep 1.2; clear');
  await expect(cleared).toHaveAttribute('data-exit-code', '0');
  // Not drawn at all (a label of zero height still shows its text at the pane's top edge).
  await expect(cleared.getByTestId('block-duration')).toHaveCSS('display', 'none');
});

import { expect, test } from '@playwright/test';
import { bufferText, firstPane, runCommand, terminalSize, waitForBuffer } from './support/terminalPage';
import { makeHome, removeHome, startTandem, type TandemServer } from './support/tandemServer';

let server: TandemServer | undefined;

test.afterEach(async () => {
  await server?.stop();
  if (server) removeHome(server.home);
  server = undefined;
});

for (const shell of ['bash', 'zsh', 'fish'] as const) {
  test(`${shell}: first prompt appears and commands become blocks with the right attributes`, async ({ page }) => {
    server = await startTandem({ shell: `/usr/bin/${shell}` });
    await page.goto(server.url);
    const { pane, paneId } = await firstPane(page);
    await expect(pane).toHaveAttribute('data-shell', shell);
    await expect(pane).toHaveAttribute('data-integration', 'on');

    const cd = await runCommand(page, pane, 'cd /tmp');
    await expect(cd).toHaveAttribute('data-exit-code', '0');
    await expect(cd).toHaveAttribute('data-trusted', 'true');

    const failing = await runCommand(page, pane, 'echo e2e-output; false');
    await expect(failing).toHaveAttribute('data-exit-code', '1');
    await expect(failing).toHaveAttribute('data-cwd', '/tmp');
    await expect(failing).toHaveAttribute('data-block-id', /^p\d+b\d+$/);
    // The output line itself (the echoed command line holds the text too).
    await waitForBuffer(page, paneId, /^e2e-output$/m);

    const missing = await runCommand(page, pane, 'definitely-not-a-command-xyz');
    await expect(missing).toHaveAttribute('data-exit-code', '127');
  });
}

test('keyboard input reaches the shell and a running block has no exit code yet', async ({ page }) => {
  server = await startTandem({ shell: '/usr/bin/bash' });
  await page.goto(server.url);
  const { pane } = await firstPane(page);
  await pane.click();
  await page.keyboard.type('sleep 2');
  await page.keyboard.press('Enter');
  const block = pane.locator('[data-testid="block"][data-command="sleep 2"]');
  await expect(block).toHaveCount(1);
  await expect(block).not.toHaveAttribute('data-exit-code', /.*/);
  await expect(block).toHaveAttribute('data-exit-code', '0', { timeout: 10_000 });
});

test('split panes and tabs each get their own shell', async ({ page }) => {
  server = await startTandem({ shell: '/usr/bin/bash' });
  await page.goto(server.url);
  const { pane } = await firstPane(page);
  await pane.click();
  await page.keyboard.press('Control+Shift+D');
  await expect(page.getByTestId('pane')).toHaveCount(2);
  const panes = page.getByTestId('pane');
  const ids = await panes.evaluateAll((elements) => elements.map((element) => element.getAttribute('data-pane-id')));
  expect(new Set(ids).size).toBe(2);
  const second = panes.nth(1);
  await runCommand(page, second, 'echo in-the-split');

  await page.keyboard.press('Control+Shift+T');
  const visible = page.locator('[data-testid="pane"]:visible');
  await expect(visible).toHaveCount(1);
  const tabPane = visible.first();
  const tabPaneId = await tabPane.getAttribute('data-pane-id');
  expect(ids).not.toContain(tabPaneId);
  await runCommand(page, tabPane, 'echo in-the-new-tab');
});

test('resizing the window reflows the terminal and the shell sees the new size', async ({ page }) => {
  server = await startTandem({ shell: '/usr/bin/bash' });
  await page.goto(server.url);
  const { pane, paneId } = await firstPane(page);
  await runCommand(page, pane, 'true');
  const before = await terminalSize(page, paneId);
  await page.setViewportSize({ width: 700, height: 500 });
  await expect.poll(async () => (await terminalSize(page, paneId)).cols).toBeLessThan(before.cols);
  const after = await terminalSize(page, paneId);
  await runCommand(page, pane, 'stty size');
  await expect.poll(() => bufferText(page, paneId)).toContain(`${after.rows} ${after.cols}`);
});

test('a restart restores tabs, cwd and scrollback', async ({ page }) => {
  const home = makeHome();
  server = await startTandem({ shell: '/usr/bin/bash', home });
  await page.goto(server.url);
  const { pane } = await firstPane(page);
  await runCommand(page, pane, 'cd /tmp && echo restore-marker-1');
  await page.keyboard.press('Control+Shift+T');
  await expect(page.getByTestId('pane')).toHaveCount(2);
  await expect(page.locator('[data-testid="pane"]:visible')).toHaveCount(1);
  const secondTab = page.locator('[data-testid="pane"]:visible').first();
  await runCommand(page, secondTab, 'cd /usr && echo restore-marker-2');
  await page.close();
  await server.stop('SIGTERM');
  server = undefined;

  server = await startTandem({ shell: '/usr/bin/bash', home });
  const again = await page.context().newPage();
  await again.goto(server.url);
  await expect(again.getByTestId('pane')).toHaveCount(2);
  const restored = again.locator('[data-testid="pane"]:visible').first();
  const restoredId = (await restored.getAttribute('data-pane-id'))!;
  await expect.poll(() => bufferText(again, restoredId)).toContain('restore-marker-2');
  const pwd = await runCommand(again, restored, 'pwd');
  await expect(pwd).toHaveAttribute('data-cwd', '/usr');
});

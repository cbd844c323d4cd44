import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { messages, openPanel, useAgentTandem, typeInPane } from './support/aiPanel';
import { runCommand, waitForBuffer } from './support/terminalPage';
import { makeHomeWithConfig } from './support/tandemServer';
import { blockOf, waitForPrompt } from './support/uiPage';

// Watch mode end to end: hints in the status bar and on the failed block's mark, made from
// blocks alone (the scripted model server must see nothing), dismissed with a click or Esc,
// ended by a success; and a bare `??` sending the failed blocks' errors.

const ai = useAgentTandem();

const homeWith = (companion: string) => makeHomeWithConfig(`[companion]\n${companion}\n`);

async function expectTerminalFocused(page: Page): Promise<void> {
  await expect(page.locator('.xterm-helper-textarea').first()).toBeFocused();
}

test('a retry loop shows its hint and a badge on the failed block; Esc and a click dismiss, a success ends it; no model request', async ({ page }) => {
  const { pane, paneId } = await ai.start(page, homeWith('long_pause_seconds = 0'));
  const status = page.getByTestId('companion-status');
  await expect(status).toHaveAttribute('data-mode', 'watch');
  await expect(status).toHaveText('Watching');
  const hint = page.getByTestId('companion-hint');

  await runCommand(page, pane, 'cat /etc/no-such-file');
  await expect(hint).toHaveCount(0);
  const second = (await runCommand(page, pane, 'cat  /etc/no-such-file'));
  await expect(hint).toHaveAttribute('data-pattern', 'retry-loop');
  await expect(hint).toHaveAttribute('data-pane-id', paneId);
  await expect(hint).toHaveText("Try ?? why isn't this working");
  await expect(second.getByTestId('companion-badge')).toHaveAttribute('data-pattern', 'retry-loop');
  await expect(pane.getByTestId('companion-badge')).toHaveCount(1);
  await expectTerminalFocused(page);

  // Esc at the prompt dismisses it and is used up: the next command reaches bash intact.
  await page.keyboard.press('Escape');
  await expect(hint).toHaveCount(0);
  await expect(pane.getByTestId('companion-badge')).toHaveCount(0);
  const after = await runCommand(page, pane, 'echo after-esc');
  await expect(after).toHaveAttribute('data-exit-code', '0');

  // A new episode: a click dismisses, keyboard focus stays in the terminal.
  await runCommand(page, pane, 'ls /no-such-dir');
  await runCommand(page, pane, 'ls /no-such-dir');
  await expect(hint).toHaveAttribute('data-pattern', 'retry-loop');
  await hint.click();
  await expect(hint).toHaveCount(0);
  await expectTerminalFocused(page);

  // And another: a success ends the episode and its hint.
  await runCommand(page, pane, 'echo ok');
  await runCommand(page, pane, 'false');
  await runCommand(page, pane, 'ls /nope');
  await runCommand(page, pane, 'cat /nope');
  await expect(hint).toHaveAttribute('data-pattern', 'error-cascade');
  await expect(hint).toHaveText('Stuck? ?? for help');
  await runCommand(page, pane, 'true');
  await expect(hint).toHaveCount(0);
  await expect(pane.getByTestId('companion-badge')).toHaveCount(0);

  expect(ai.model.requests).toHaveLength(0);
  expect(ai.model.modelListRequests).toBe(0);
});

test('in a split the status bar shows the focused pane\'s hint only; each block keeps its badge', async ({ page }) => {
  const { pane: first, paneId: firstId } = await ai.start(page, homeWith('long_pause_seconds = 0'));
  const hint = page.getByTestId('companion-hint');
  await page.keyboard.press('Control+Shift+D');
  const second = page.locator(`[data-testid="pane"]:not([data-pane-id="${firstId}"])`);
  await expect(second).toHaveAttribute('data-focused', 'true');
  const secondId = (await second.getAttribute('data-pane-id'))!;

  // A retry loop in the second pane: its hint, while it has the keyboard.
  await runCommand(page, second, 'cat /etc/no-such-file');
  const failed = await runCommand(page, second, 'cat /etc/no-such-file');
  await expect(hint).toHaveAttribute('data-pane-id', secondId);
  await expect(failed.getByTestId('companion-badge')).toHaveAttribute('data-pattern', 'retry-loop');

  // The first pane takes the keyboard: no hint in the status bar, the badge stays on its block.
  await first.click();
  await expect(first).toHaveAttribute('data-focused', 'true');
  await expect(hint).toHaveCount(0);
  await expect(failed.getByTestId('companion-badge')).toHaveCount(1);
  await second.click();
  await expect(hint).toHaveAttribute('data-pane-id', secondId);

  // Each pane its own: a cascade in the first pane shows there, and only there.
  await runCommand(page, first, 'false');
  await runCommand(page, first, 'ls /no-such-dir');
  await runCommand(page, first, 'cat /no-such-file');
  await expect(hint).toHaveAttribute('data-pane-id', firstId);
  await expect(hint).toHaveAttribute('data-pattern', 'error-cascade');
  await expect(hint).toHaveCount(1);
  await expect(first.getByTestId('companion-badge')).toHaveCount(1);
  await expect(second.getByTestId('companion-badge')).toHaveCount(1);
  await second.click();
  await expect(hint).toHaveAttribute('data-pattern', 'retry-loop');
  await expect(hint).toHaveAttribute('data-pane-id', secondId);
  expect(ai.model.requests).toHaveLength(0);
});

test('Esc reaches the shell when no hint shows, and a running program even while one shows', async ({ page }) => {
  const { pane, paneId } = await ai.start(page, homeWith('long_pause_seconds = 0'));
  await waitForPrompt(pane);
  await pane.click();
  // readline: Esc b is backward-word, so X lands before "abc" only if the Esc got there.
  await page.keyboard.type('echo abc');
  await page.keyboard.press('Escape');
  await page.keyboard.press('b');
  await page.keyboard.type('X');
  await page.keyboard.press('Enter');
  await expect(blockOf(pane, 'echo Xabc')).toHaveAttribute('data-exit-code', '0');

  await runCommand(page, pane, 'false');
  await runCommand(page, pane, 'false');
  const hint = page.getByTestId('companion-hint');
  await expect(hint).toHaveAttribute('data-pattern', 'retry-loop');
  await page.keyboard.type('cat -v');
  await page.keyboard.press('Enter');
  await expect(pane).toHaveAttribute('data-state', 'EXECUTING');
  await page.keyboard.press('Escape');
  await page.keyboard.type('x');
  await page.keyboard.press('Enter');
  await waitForBuffer(page, paneId, /\^\[x/);
  await expect(hint).toBeVisible();
  await page.keyboard.press('Control+d');
  await expect(blockOf(pane, 'cat -v')).toHaveAttribute('data-exit-code', '0');
  await expect(hint).toHaveCount(0);
});

test('a long pause after a failure in the focused pane brings "Need help with that error?"', async ({ page }) => {
  const { pane, paneId } = await ai.start(page, homeWith('long_pause_seconds = 1'));
  const failed = await runCommand(page, pane, 'cat /etc/no-such-file');
  const hint = page.getByTestId('companion-hint');
  await expect(hint).toHaveAttribute('data-pattern', 'long-pause');
  await expect(hint).toHaveAttribute('data-pane-id', paneId);
  await expect(hint).toHaveText('Need help with that error?');
  await expect(failed.getByTestId('companion-badge')).toHaveAttribute('data-pattern', 'long-pause');
  await expectTerminalFocused(page);
  expect(ai.model.requests).toHaveLength(0);
});

test('hints switched off: the status says so and no hint appears', async ({ page }) => {
  const { pane } = await ai.start(page, homeWith('hints = false'));
  await expect(page.getByTestId('companion-status')).toHaveAttribute('data-mode', 'off');
  await expect(page.getByTestId('companion-status')).toHaveText('Hints off');
  await runCommand(page, pane, 'false');
  await runCommand(page, pane, 'false');
  await runCommand(page, pane, 'false');
  await expect(page.getByTestId('companion-hint')).toHaveCount(0);
});

test('Settings → Companion writes [companion] and applies live: a lower cascade threshold, then hints off', async ({ page }) => {
  const { pane, server } = await ai.start(page);
  await page.getByTestId('open-settings').click();
  const dialog = page.getByTestId('settings-dialog');
  const companion = dialog.getByTestId('settings-companion');
  await expect(companion.locator('input[name="companionErrorCascade"]')).toHaveValue('3');
  await companion.locator('input[name="companionErrorCascade"]').fill('2');
  await companion.locator('input[name="companionLongPause"]').fill('0');
  await page.getByTestId('settings-save').click();
  await expect(dialog).toBeHidden();
  const saved = readFileSync(join(server.home, '.config/tandem/config.toml'), 'utf8');
  expect(saved).toMatch(/^\[companion\]$/m);
  expect(saved).toMatch(/^error_cascade\s*=\s*2$/m);
  expect(saved).toMatch(/^long_pause_seconds\s*=\s*0$/m);

  await runCommand(page, pane, 'false');
  await runCommand(page, pane, 'ls /no-such-dir');
  const hint = page.getByTestId('companion-hint');
  await expect(hint).toHaveAttribute('data-pattern', 'error-cascade');

  // Switched off, the hint goes at once and the status says so.
  await page.keyboard.press('Control+,');
  await companion.locator('input[name="companionHints"]').uncheck();
  await page.getByTestId('settings-save').click();
  await expect(dialog).toBeHidden();
  await expect(hint).toHaveCount(0);
  await expect(page.getByTestId('companion-status')).toHaveAttribute('data-mode', 'off');
  expect(readFileSync(join(server.home, '.config/tandem/config.toml'), 'utf8')).toMatch(/^hints\s*=\s*false$/m);
});

test('`??` alone sends the failed blocks’ errors; the panel opens, the keyboard stays in the terminal', async ({ page }) => {
  const { pane } = await ai.start(page, homeWith('long_pause_seconds = 0'));
  await runCommand(page, pane, 'echo fine');
  await runCommand(page, pane, 'cat /etc/no-such-file');
  await runCommand(page, pane, 'ls /no-such-dir');
  await runCommand(page, pane, 'ls /no-such-dir');
  await expect(page.getByTestId('companion-hint')).toHaveAttribute('data-pattern', 'retry-loop');
  ai.model.script({ parts: [{ text: 'Both paths do not exist.' }] });
  await typeInPane(page, pane, '??');
  // Asking is what the hint asked for: it goes.
  await expect(page.getByTestId('companion-hint')).toHaveCount(0);

  const sent = messages(await ai.model.waitForRequest(1));
  expect(sent).toContain('What happened with these commands');
  expect(sent).toContain('errors_only');
  expect(sent).toContain('cat /etc/no-such-file');
  expect(sent).toContain('ls /no-such-dir');
  expect(sent).toMatch(/cat: \/etc\/no-such-file: No such file or directory/);
  expect(sent).toMatch(/ls: cannot access '\/no-such-dir': No such file or directory/);
  // Only the failures since the last success.
  expect(sent).not.toContain('echo fine');

  const panel = page.getByTestId('ai-panel');
  await expect(panel).toBeVisible();
  await expect(panel.locator('[data-testid="ai-message"][data-role="assistant"]').last()).toContainText('Both paths do not exist.');
  await expectTerminalFocused(page);
});

test('no long-pause hint while the user works on the failure in the AI panel: typing in its input, dragging the block in', async ({ page }) => {
  const pauseSeconds = 5;
  const { pane, panel } = await ai.start(page, homeWith(`long_pause_seconds = ${pauseSeconds}\nerror_cascade = 10`));
  const hint = page.getByTestId('companion-hint');
  await openPanel(page);
  const input = panel.getByTestId('ai-input');
  /** Long enough that a pause timer started by the failure would have fired. */
  const pauseOver = async (since: number) => {
    await expect.poll(() => Date.now() - since, { timeout: (pauseSeconds + 10) * 1000 }).toBeGreaterThan((pauseSeconds + 2) * 1000);
  };

  // Typing in the AI input right after the failure: the pane keeps the window's focus, but the user is not stuck.
  await runCommand(page, pane, 'cat /etc/no-such-file');
  const typedAt = Date.now();
  await input.click();
  await page.keyboard.type('why does');
  await pauseOver(typedAt);
  await expect(hint).toHaveCount(0);

  // Dragging the failed block into the panel right after it failed.
  const failed = await runCommand(page, pane, 'ls /no-such-dir');
  const draggedAt = Date.now();
  await failed.locator('.block__gutter').dragTo(panel);
  await expect(panel.getByTestId('attachment')).toHaveAttribute('data-block-id', (await failed.getAttribute('data-block-id'))!);
  await pauseOver(draggedAt);
  await expect(hint).toHaveCount(0);

  // Left alone after a failure, the pause hint does come (the timer works here).
  const alone = await runCommand(page, pane, 'cat /etc/other-missing-file');
  await expect(hint).toHaveAttribute('data-pattern', 'long-pause', { timeout: (pauseSeconds + 15) * 1000 });
  await expect(alone.getByTestId('companion-badge')).toHaveAttribute('data-pattern', 'long-pause');
  expect(ai.model.requests).toHaveLength(0);
});

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { messages, runCommandTool, sendFromPanel, step, typeInPane, useAgentTandem } from './support/aiPanel';
import { bufferText, runCommand } from './support/terminalPage';
import { blockOf, waitForPrompt } from './support/uiPage';

// Pagers and the prompt, as a user meets them: quitting `less` and then typing a `# `
// instruction, an instruction Tandem cannot be sure of, and a plan step waiting in `less`.

const ai = useAgentTandem();

function longFile(home: string): void {
  writeFileSync(join(home, 'long.txt'), Array.from({ length: 500 }, (_, n) => `line ${n + 1}`).join('\n'));
}

test('a `# ` instruction typed right after quitting less reaches the agent, not bash or its history', async ({ page }) => {
  const { pane, paneId, panel, server } = await ai.start(page);
  longFile(server.home);
  ai.model.script({ parts: [{ text: 'Hello.' }] });
  await pane.click();
  await page.keyboard.type('less long.txt');
  await page.keyboard.press('Enter');
  await expect.poll(() => bufferText(page, paneId)).toContain('line 20');
  await page.keyboard.press('q');
  await expect(blockOf(pane, 'less long.txt')).toHaveAttribute('data-exit-code', '0');
  await waitForPrompt(pane);
  await typeInPane(page, pane, '# hello after pager');
  await expect(panel.locator('[data-testid="ai-message"][data-role="user"]')).toContainText('hello after pager');
  expect(messages(await ai.model.waitForRequest(1))).toContain('hello after pager');
  await runCommand(page, pane, 'history -a');
  expect(readFileSync(join(server.home, '.bash_history'), 'utf8')).not.toContain('hello after pager');
});

test('an instruction edited with the cursor keys is held back from the shell, with a notice saying why', async ({ page }) => {
  const { pane, server } = await ai.start(page);
  await pane.click();
  await page.keyboard.type('# my token is abc123');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  const notice = pane.getByTestId('pane-notice');
  await expect(notice).toContainText('Enter was not sent to the shell');
  await expect(notice).toContainText('Ctrl+C');
  await page.keyboard.press('Control+c');
  await runCommand(page, pane, 'history -a');
  expect(readFileSync(join(server.home, '.bash_history'), 'utf8')).not.toContain('abc123');
  expect(ai.model.requests).toHaveLength(0);
});

test('a plan step in less says it waits in a pager; Esc twice ends it and everything agrees', async ({ page }) => {
  const { pane, panel, server } = await ai.start(page);
  longFile(server.home);
  ai.model.script({ parts: [runCommandTool('s1', 'less long.txt', 'read it')] });
  await sendFromPanel(page, 'show me long.txt');
  const running = step(panel, 'less long.txt');
  await running.locator('[data-action="approve"]').click();
  await expect(running).toHaveAttribute('data-status', 'running');
  await expect(running).toContainText('waiting in a pager (less)');
  await panel.getByTestId('ai-input').press('Escape');
  await panel.getByTestId('ai-input').press('Escape');
  await expect(blockOf(pane, 'less long.txt')).toHaveAttribute('data-exit-code', /\d+/);
  await expect(running).toHaveAttribute('data-status', 'failed');
  // The first Esc already ends the step (it sends `q`); on a busy machine less may quit before the second
  // Esc arrives, and then the step says it was interrupted rather than cancelled. Both are true.
  await expect(running).toContainText(/cancelled|interrupted/);
  await expect(panel).not.toContainText('Running a step');
  await waitForPrompt(pane);
});

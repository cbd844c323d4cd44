import { expect, test } from '@playwright/test';
import { messages, runCommandTool, sendFromPanel, step, typeInPane, useAgentTandem } from './support/aiPanel';
import { waitForBuffer } from './support/terminalPage';
import { blockOf } from './support/uiPage';

// Pane notices about `!auto` go when their cause does, and a task typed while the agent is
// busy is not lost: it goes back to the prompt. Real Chromium, `tandem web`, a real bash, the
// real Anthropic SDK against a scripted model.

const ai = useAgentTandem();

test('a bare `!auto` notice goes once the user types in the pane', async ({ page }) => {
  const { pane } = await ai.start(page);
  await typeInPane(page, pane, '!auto');
  const notice = pane.getByTestId('pane-notice');
  await expect(notice).toContainText('Type the task after !auto');
  await page.keyboard.type('echo moving-on');
  await expect(notice).toHaveCount(0);
  await page.keyboard.press('Enter');
  await expect(blockOf(pane, 'echo moving-on')).toHaveAttribute('data-exit-code', '0');
});

test('`!auto <task>` while a plan waits: the task goes back to the prompt, the notice goes when the agent is done, Enter then starts the run', async ({ page }) => {
  const { pane, paneId, panel } = await ai.start(page);
  ai.model.script(
    { parts: [runCommandTool('p1', 'touch waiting.txt')] },
    { parts: [{ text: 'Left it.' }] },
    { parts: [{ text: 'Nothing to do for the second task.' }] },
  );
  await sendFromPanel(page, 'make a file');
  const waiting = step(panel, 'touch waiting.txt');
  await expect(waiting.locator('[data-action="approve"]')).toBeVisible();

  await typeInPane(page, pane, '!auto second task');
  const notice = pane.getByTestId('pane-notice');
  await expect(notice).toContainText('still working');
  await expect(notice).toContainText('back at the prompt');
  await expect(pane.getByTestId('auto-banner')).toHaveCount(0);
  await waitForBuffer(page, paneId, /\$ !auto second task\s*$/);

  // The plan ends, the agent answers: the reason for the notice is gone, and so is the notice.
  await panel.locator('[data-testid="plan"] [data-action="deny-plan"]').click();
  await expect(panel.locator('[data-testid="ai-message"][data-role="assistant"]').last()).toContainText('Left it.');
  await expect(notice).toHaveCount(0);

  // The line is still the task: Enter hands it to an auto run.
  await pane.click();
  await page.keyboard.press('Enter');
  const request = await ai.model.waitForRequest(3);
  expect(messages(request)).toContain('second task');
  await expect(panel.locator('[data-testid="ai-message"][data-role="summary"]')).toHaveAttribute('data-end', 'done');
  expect(await blockOf(pane, '!auto second task').count()).toBe(0);
});

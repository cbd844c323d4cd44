import { expect, test } from '@playwright/test';
import { runCommandTool, step, toolResults, typeInPane, useAgentTandem } from './support/aiPanel';
import { bufferText, runCommand } from './support/terminalPage';
import { makeHomeWithConfig } from './support/tandemServer';
import { blockOf, waitForPrompt } from './support/uiPage';

// How an `!auto` run ends, as the user sees it: a step beyond the step limit stays on its
// card, refused, and in the summary's "Not run"; what stopped the run is named on the card
// and told to the model; Ctrl+C in the pane leaves the screen as one Ctrl+C does.

const ai = useAgentTandem();

const homeWith = (companion: string) => makeHomeWithConfig(`[companion]\n${companion}\n`);

test('with auto_max_steps = 2, a third step is refused on its card and listed as not run in the summary', async ({ page }) => {
  const { pane, panel } = await ai.start(page, homeWith('auto_max_steps = 2'));
  ai.model.script({ parts: [runCommandTool('a', 'echo one'), runCommandTool('b', 'echo two'), runCommandTool('c', 'echo three')] });
  await typeInPane(page, pane, '!auto count to three');

  const third = step(panel, 'echo three');
  await expect(third).toHaveAttribute('data-status', 'denied');
  await expect(third).toContainText("this auto run's limit of 2 steps was reached");
  await expect(step(panel, 'echo two')).toHaveAttribute('data-status', 'done');
  const summary = panel.locator('[data-testid="ai-message"][data-role="summary"]');
  await expect(summary).toHaveAttribute('data-end', 'limit');
  await expect(summary.getByTestId('summary-left')).toContainText('echo three');
  await expect(summary.getByTestId('summary-left')).toContainText('limit of 2 steps');
});

test("the banner's Stop ends a running step: its card names the Stop, and so does what the model is told", async ({ page }) => {
  const { pane, panel } = await ai.start(page);
  ai.model.script({ parts: [runCommandTool('s1', 'sleep 30'), runCommandTool('s2', 'echo later')] }, { parts: [{ text: 'Understood.' }] });
  await typeInPane(page, pane, '!auto wait a while');
  await expect(step(panel, 'sleep 30')).toHaveAttribute('data-status', 'running');
  await expect(blockOf(pane, 'sleep 30')).toHaveCount(1);
  await pane.getByTestId('auto-banner').locator('[data-action="stop"]').click();

  await expect(step(panel, 'sleep 30')).toContainText('auto run stopped (Stop on its banner)');
  await expect(step(panel, 'echo later')).toHaveAttribute('data-status', 'skipped');
  await expect(step(panel, 'echo later')).toContainText('Stop on the auto banner');
  const summary = panel.locator('[data-testid="ai-message"][data-role="summary"]');
  await expect(summary.getByTestId('summary-left')).toContainText('Stop on its banner');

  await waitForPrompt(pane);
  const input = panel.getByTestId('ai-input');
  await input.click();
  await input.fill('what happened?');
  await input.press('Enter');
  const told = toolResults(await ai.model.waitForRequest(2));
  expect(told.find((result) => result.tool_use_id === 's1')?.content).toContain('It was interrupted: the user stopped the auto run with Stop on its banner.');
  expect(told.find((result) => result.tool_use_id === 's2')?.content).toBe('Not run: the user stopped the auto run with Stop on its banner.');
  expect(JSON.stringify(ai.model.requests[1]!.body?.messages)).not.toContain('Ctrl+C');
});

test('Ctrl+C in the pane of an auto run leaves one ^C on the screen, as in any shell', async ({ page }) => {
  const { pane, panel, paneId } = await ai.start(page);
  ai.model.script({ parts: [runCommandTool('s1', 'sleep 30')] });
  await typeInPane(page, pane, '!auto wait for it');
  await expect(step(panel, 'sleep 30')).toHaveAttribute('data-status', 'running');
  await expect(blockOf(pane, 'sleep 30')).toHaveCount(1);
  await pane.click();
  await page.keyboard.press('Control+c');

  await expect(panel.locator('[data-testid="ai-message"][data-role="summary"]')).toHaveAttribute('data-end', 'stopped');
  await expect(step(panel, 'sleep 30')).toContainText('auto run stopped (Ctrl+C in the pane)');
  await runCommand(page, pane, 'echo settled');
  const screen = await bufferText(page, paneId);
  expect(screen.match(/\^C/g)).toHaveLength(1);
});

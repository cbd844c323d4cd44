import { expect, test } from '@playwright/test';
import { deadPort } from '../test/support/deadPort';
import { forwardPort } from '../test/support/portForwarder';
import { sendFromPanel, useAgentTandem } from './support/aiPanel';
import { makeHomeWithConfig } from './support/tandemServer';

// §14.8 and `[ai] daily_budget_usd` in the panel: real Chromium, `tandem web`, the real SDK
// against a scripted model server on loopback.

const ai = useAgentTandem();
let stopForwarding: (() => Promise<void>) | undefined;
test.afterEach(async () => {
  await stopForwarding?.();
  stopForwarding = undefined;
});

test('no backend answers: the card offers Queue it, the bar shows the queued instruction, Retry now sends it once one answers', async ({ page }) => {
  test.setTimeout(120_000);
  const port = await deadPort();
  const { panel } = await ai.start(page, undefined, { ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}` });
  await sendFromPanel(page, 'deploy the fix');
  const card = panel.locator('[data-testid="ai-message"][data-role="error"]');
  await expect(card).toContainText('Cannot reach', { timeout: 60_000 });
  await card.getByTestId('error-queue').click();
  const bar = panel.getByTestId('offline-queue');
  await expect(bar).toContainText('1 instruction queued: no backend answered');
  await expect(card.getByTestId('error-queue')).toHaveCount(0);

  ai.model.script({ parts: [{ text: 'Deployed.' }] });
  stopForwarding = await forwardPort(port, ai.model.url);
  await bar.getByTestId('offline-retry').click();
  await expect(panel.locator('[data-testid="ai-message"][data-role="assistant"]').last()).toContainText('Deployed.', { timeout: 30_000 });
  await expect(bar).toHaveCount(0);
  expect(JSON.stringify((await ai.model.waitForRequest(1)).body)).toContain('deploy the fix');
});

test('a model without a price says cost unknown in the header instead of a guess', async ({ page }) => {
  const { panel } = await ai.start(page, undefined, { TANDEM_MODEL: 'llama-local-7b' });
  ai.model.script({ parts: [{ text: 'Local answer.' }], usage: { inputTokens: 500, outputTokens: 20 } });
  await sendFromPanel(page, 'hello');
  await expect(panel.locator('[data-testid="ai-message"][data-role="assistant"]').last()).toContainText('Local answer.');
  await expect(panel.getByTestId('ai-cost')).toHaveText('cost unknown');
  await expect(panel.getByTestId('ai-cost')).toHaveAttribute('title', /llama-local-7b has no price/);
});

test('a daily budget reached refuses the next message before it is sent, with a card naming the budget and how to raise it', async ({ page }) => {
  const { panel } = await ai.start(page, makeHomeWithConfig('[ai]\ndaily_budget_usd = 0.005\n'));
  ai.model.script({ parts: [{ text: 'First answer.' }], usage: { inputTokens: 1_000, outputTokens: 200 } }, { parts: [{ text: 'Never sent.' }] });
  await sendFromPanel(page, 'first');
  await expect(panel.locator('[data-testid="ai-message"][data-role="assistant"]').last()).toContainText('First answer.');
  await sendFromPanel(page, 'second');
  const card = panel.locator('[data-testid="ai-message"][data-role="error"]');
  await expect(card).toContainText("today's model spend is $0.0060, which reaches the daily budget of $0.0050 ([ai] daily_budget_usd)");
  await expect(card).toContainText('raise daily_budget_usd in the [ai] section');
  await expect(panel.getByTestId('daily-budget-warning')).toContainText('Daily budget reached: $0.006 of $0.005 today ([ai] daily_budget_usd).');
  expect(ai.model.requests).toHaveLength(1);
});

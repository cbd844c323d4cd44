import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { runCommandTool, sendFromPanel, step, useAgentTandem } from './support/aiPanel';
import { allowClipboard, readClipboardText } from './support/uiPage';

// Trace ids in the AI panel: real Chromium, `tandem web`, a real bash, the real Anthropic SDK
// against the scripted model server; the ids shown are checked against traces.jsonl.

const ai = useAgentTandem();

type SpanLine = { trace_id: string; span_id: string; name: string; approval?: string; attributes: Record<string, unknown> };

function spans(home: string): SpanLine[] {
  try {
    return readFileSync(join(home, '.local/state/tandem/traces.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as SpanLine);
  } catch {
    return [];
  }
}

test('each answer and each step card shows its trace id, the one in traces.jsonl, and Copy copies it whole', async ({ page }) => {
  const { panel, server } = await ai.start(page);
  await allowClipboard(page, server.origin);
  ai.model.script({ parts: [{ text: 'Running it.' }, runCommandTool('t1', 'echo traced-step', 'a traced step')] }, { parts: [{ text: 'Traced.' }] });
  await sendFromPanel(page, 'run a traced step');

  const card = step(panel, 'echo traced-step');
  await card.locator('[data-action="approve"]').click();
  await expect(card).toHaveAttribute('data-status', 'done');
  const answers = panel.locator('[data-testid="ai-message"][data-role="assistant"]');
  await expect(answers.last()).toContainText('Traced.');

  const stepChip = card.getByTestId('trace-id');
  const traceId = await stepChip.getAttribute('data-trace-id');
  const spanId = await stepChip.getAttribute('data-span-id');
  expect(traceId).toMatch(/^[0-9a-f]{32}$/);
  expect(spanId).toMatch(/^[0-9a-f]{16}$/);
  await expect(stepChip).toContainText(`trace ${traceId!.slice(0, 8)}`);
  await expect(stepChip).toHaveAttribute('title', new RegExp(`trace ${traceId}\\nspan ${spanId}`));
  for (const answer of await answers.all()) await expect(answer.getByTestId('trace-id')).toHaveAttribute('data-trace-id', traceId!);

  // The file has the same ids: the step's span, and the chat spans of both answers.
  await expect.poll(() => spans(server.home).filter((span) => span.name === 'invoke_agent').length, { timeout: 15_000 }).toBe(1);
  const written = spans(server.home);
  // Approved with the card's button: the span says by whom, and how long the step waited for that click.
  expect(written.find((span) => span.name === 'execute_tool run_command')).toMatchObject({
    trace_id: traceId,
    span_id: spanId,
    approval: 'you',
    attributes: { 'tandem.approval.decision': 'ask', 'tandem.approval.wait_ms': expect.any(Number) },
  });
  expect(written.filter((span) => span.name.startsWith('chat ')).map((span) => span.trace_id)).toEqual([traceId, traceId]);

  await answers.last().locator('[data-action="copy-trace-id"]').click();
  await expect(answers.last().locator('[data-action="copy-trace-id"]')).toHaveText('Copied');
  expect(await readClipboardText(page)).toBe(traceId);
});

import { expect, type Locator, type Page } from '@playwright/test';
import type { RecordedRequest } from '../../test/support/modelServer';

// Driving the AI panel from specs: typing, sending, finding plan steps, reading what the
// scripted model received.

export async function typeInPane(page: Page, pane: Locator, text: string): Promise<void> {
  await pane.click();
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
}

export async function openPanel(page: Page): Promise<Locator> {
  const panel = page.getByTestId('ai-panel');
  if (!(await panel.isVisible())) await page.keyboard.press('Control+Shift+Space');
  await expect(panel).toBeVisible();
  return panel;
}

export async function sendFromPanel(page: Page, text: string): Promise<void> {
  const panel = await openPanel(page);
  const input = panel.getByTestId('ai-input');
  await input.click();
  await input.fill(text);
  await input.press('Enter');
}

export function toolResults(request: RecordedRequest): { tool_use_id: string; content: string; is_error?: boolean }[] {
  const last = ((request.body?.messages ?? []) as { content: unknown }[]).at(-1);
  if (!last || !Array.isArray(last.content)) return [];
  return last.content.filter((part: { type?: string }) => part.type === 'tool_result') as never;
}

export const messages = (request: RecordedRequest) => JSON.stringify(request.body?.messages ?? []);
export const step = (panel: Locator, command: string) => panel.locator(`[data-testid="plan-step"][data-command="${command.replace(/["\\]/g, '\\$&')}"]`);
export const runCommandTool = (id: string, command: string, purpose = 'a step') => ({ toolUse: { id, name: 'run_command', input: { command, purpose } } });

import { expect, test, type Locator, type Page } from '@playwright/test';
import { startScriptedModelServer, type RecordedRequest, type ScriptedModelServer } from '../../test/support/modelServer';
import { blockOf, useTandem } from './uiPage';

// Driving the AI panel from specs: typing, sending, finding plan steps, reading what the
// scripted model received.

export async function typeInPane(page: Page, pane: Locator, text: string): Promise<void> {
  await pane.click();
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
}

/**
 * `cd` into `project` in the pane, then wait until a block starts there: the pane's cwd, where
 * the agent's relative paths start, is known.
 */
export async function enterProject(page: Page, pane: Locator, project: string, relative: string): Promise<void> {
  await typeInPane(page, pane, `cd ${relative}`);
  await expect(blockOf(pane, `cd ${relative}`)).toHaveAttribute('data-exit-code', '0');
  await typeInPane(page, pane, 'pwd');
  await expect(blockOf(pane, 'pwd')).toHaveAttribute('data-cwd', project);
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

/**
 * `tandem web` with the AI panel wired to a scripted model server (a fresh one per test):
 * `start(page, home?)` opens Tandem, `model` is this test's server.
 */
export function useAgentTandem() {
  const tandem = useTandem();
  let server: ScriptedModelServer | undefined;
  test.beforeEach(async () => {
    server = await startScriptedModelServer();
  });
  test.afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  return {
    /** Tandem without a model configured. */
    tandem,
    get model(): ScriptedModelServer {
      if (!server) throw new Error('the scripted model server runs only inside a test');
      return server;
    },
    /** `env`: more variables for Tandem (DISPLAY of a test's X server, say). */
    async start(page: Page, home?: string, env: NodeJS.ProcessEnv = {}) {
      const opened = await tandem.start(page, {
        home,
        env: { ANTHROPIC_BASE_URL: this.model.url, ANTHROPIC_API_KEY: 'sk-ant-e2e', TANDEM_MODEL: 'claude-sonnet-5-5', ...env },
      });
      return { ...opened, panel: page.getByTestId('ai-panel') };
    },
  };
}

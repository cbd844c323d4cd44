import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { runCommandTool, sendFromPanel, step, toolResults, useAgentTandem } from './support/aiPanel';
import { makeHome } from './support/tandemServer';
import { blockOf } from './support/uiPage';

// The approval gate end to end: session grants, hooks, policy.toml, what was sent. Real
// Chromium, `tandem web`, a real bash, the real Anthropic SDK against a scripted model.

const ai = useAgentTandem();

/** A home with Tandem's config dir holding `files` (relative paths; executables get 0755). */
function homeWith(files: Record<string, { text: string; executable?: boolean }>): string {
  const home = makeHome();
  for (const [name, file] of Object.entries(files)) {
    const path = join(home, '.config/tandem', name);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, file.text);
    if (file.executable) chmodSync(path, 0o755);
  }
  return home;
}

test('Allow for this session stops asking for the same command shape only', async ({ page }) => {
  const { pane, panel } = await ai.start(page);
  ai.model.script(
    { parts: [runCommandTool('g1', 'ls -la /tmp')] },
    { parts: [{ text: 'Listed.' }] },
    { parts: [runCommandTool('g2', 'ls -la /var'), runCommandTool('g3', 'ls -R /tmp')] },
    { parts: [{ text: 'Done.' }] },
  );
  await sendFromPanel(page, 'list /tmp');
  const first = step(panel, 'ls -la /tmp');
  await expect(first).toHaveAttribute('data-decision', 'ask');
  await expect(first.getByTestId('step-where')).toContainText('pane');
  await first.locator('[data-action="allow-session"]').click();
  await expect(blockOf(pane, 'ls -la /tmp')).toHaveAttribute('data-exit-code', '0');
  await expect(panel.locator('[data-testid="ai-message"][data-role="assistant"]').last()).toContainText('Listed.');
  await expect(panel.getByTestId('session-grant')).toHaveCount(1);

  await sendFromPanel(page, 'now /var, and /tmp recursively');
  // Same shape (program and flags; another argument): runs without asking.
  const same = step(panel, 'ls -la /var');
  await expect(same).toHaveAttribute('data-status', 'done');
  await expect(same).toHaveAttribute('data-decided-by', 'grant');
  await expect(blockOf(pane, 'ls -la /var')).toHaveAttribute('data-exit-code', '0');
  // Another flag is another shape: it asks.
  const other = step(panel, 'ls -R /tmp');
  await expect(other).toHaveAttribute('data-status', 'proposed');
  await expect(other).toHaveAttribute('data-decision', 'ask');
  await expect(panel.getByTestId('ai-status')).toHaveAttribute('data-status', 'awaiting-approval');
  await expect(blockOf(pane, 'ls -R /tmp')).toHaveCount(0);
  await other.locator('[data-action="deny"]').click();
  await expect(panel.locator('[data-testid="ai-message"][data-role="assistant"]').last()).toContainText('Done.');
});

test('a pre-exec hook that denies blocks the step, and the model is told why', async ({ page }) => {
  const home = homeWith({
    'hooks/pre-exec': {
      executable: true,
      text: [
        '#!/bin/sh',
        'input=$(cat)',
        'case "$input" in',
        '  *production*) echo \'{"decision":"deny","reason":"production is deployed by hand"}\' ;;',
        'esac',
        '',
      ].join('\n'),
    },
  });
  const { pane, panel } = await ai.start(page, home);
  ai.model.script({ parts: [runCommandTool('h1', 'echo deploy production')] }, { parts: [{ text: 'Understood.' }] });
  await sendFromPanel(page, 'deploy');
  const denied = step(panel, 'echo deploy production');
  await expect(denied).toHaveAttribute('data-status', 'denied');
  await expect(denied).toHaveAttribute('data-decided-by', 'hook');
  await expect(denied.getByTestId('step-rule')).toContainText('production is deployed by hand');
  const [result] = toolResults(await ai.model.waitForRequest(2));
  expect(result?.is_error).toBe(true);
  expect(result?.content).toContain('production is deployed by hand');
  await expect(blockOf(pane, 'echo deploy production')).toHaveCount(0);
});

test('a pre-exec hook that rewrites a command: the rewritten one is what runs, and both card and model say so', async ({ page }) => {
  const home = homeWith({
    'hooks/pre-exec': {
      executable: true,
      text: ['#!/bin/sh', 'case "$(cat)" in', '  *"echo original"*) echo \'{"command":"echo rewritten"}\' ;;', 'esac', ''].join('\n'),
    },
  });
  const { pane, panel } = await ai.start(page, home);
  ai.model.script({ parts: [runCommandTool('m1', 'echo original')] }, { parts: [{ text: 'Noted.' }] });
  await sendFromPanel(page, 'say something');
  const rewritten = step(panel, 'echo rewritten');
  await expect(rewritten).toHaveAttribute('data-decision', 'ask');
  await expect(rewritten).toContainText('changed by hook pre-exec');
  await rewritten.locator('[data-action="approve"]').click();
  await expect(blockOf(pane, 'echo rewritten')).toHaveAttribute('data-exit-code', '0');
  const [result] = toolResults(await ai.model.waitForRequest(2));
  expect(result?.content).toContain('The pre-exec hook pre-exec changed your command');
  expect(result?.content).toContain('you proposed: echo original');
});

test('policy.toml: read-only commands run without asking; a broken policy is reported and everything asks', async ({ page }) => {
  const home = homeWith({ 'policy.toml': { text: '[approval.shell]\nallow_read_only = true\ndeny_patterns = ["touch *"]\n' } });
  const { pane, panel } = await ai.start(page, home);
  ai.model.script(
    { parts: [runCommandTool('p1', 'pwd'), runCommandTool('p2', 'touch made-by-agent')] },
    { parts: [{ text: 'First plan done.' }] },
  );
  await sendFromPanel(page, 'where am I?');
  await expect(step(panel, 'pwd')).toHaveAttribute('data-status', 'done');
  await expect(step(panel, 'pwd').getByTestId('step-rule')).toContainText('allow_read_only');
  const touched = step(panel, 'touch made-by-agent');
  await expect(touched).toHaveAttribute('data-status', 'denied');
  await expect(touched.getByTestId('step-rule')).toContainText('deny_patterns "touch *"');
  // The rule line names the denial; the card does not say it a second time.
  expect((await touched.innerText()).split('deny_patterns "touch *"')).toHaveLength(2);
  const results = toolResults(await ai.model.waitForRequest(2));
  expect(results[1]?.content).toContain('deny_patterns');
  await expect(blockOf(pane, 'touch made-by-agent')).toHaveCount(0);

  writeFileSync(join(home, '.config/tandem/policy.toml'), '[approval.shell]\nallow_read_only = "yes"\n');
  ai.model.script({ parts: [runCommandTool('p3', 'pwd')] }, { parts: [{ text: 'Second.' }] });
  await sendFromPanel(page, 'and again?');
  const asks = panel.locator('[data-testid="plan-step"][data-command="pwd"]').last();
  await expect(asks).toHaveAttribute('data-decision', 'ask');
  await expect(asks.getByTestId('step-rule')).toContainText('asking for everything');
  await expect(panel.getByTestId('policy-problem')).toContainText('policy.toml');
  await asks.locator('[data-action="approve"]').click();
  await expect(panel.locator('[data-testid="ai-message"][data-role="assistant"]').last()).toContainText('Second.');
});

test('a policy.toml that cannot be used is reported at startup', async ({ page }) => {
  const home = homeWith({ 'policy.toml': { text: '[approval.shell]\ndeny_pattern = ["sudo *"]\n' } });
  await ai.start(page, home);
  const banner = page.locator('[data-testid="banner"][data-kind="policy-error"]');
  await expect(banner).toBeVisible();
  await expect(banner).toContainText('policy.toml');
  await expect(banner).toContainText('deny_pattern');
  await expect(banner).toContainText('asks you');
});

test('what was sent shows the exact request, with a secret typed in the message redacted', async ({ page }) => {
  const { panel } = await ai.start(page);
  const secret = 'AKIAZ7Q3RT5LXW2M9KPV';
  ai.model.script({ parts: [{ text: 'Noted.' }] });
  await sendFromPanel(page, `my access key is ${secret}, is that fine?`);
  const answer = panel.locator('[data-testid="ai-message"][data-role="assistant"]').last();
  await expect(answer).toContainText('Noted.');
  await expect(panel.getByTestId('redacted')).toContainText('aws-access-key');
  const received = JSON.stringify((await ai.model.waitForRequest(1)).body);
  expect(received).not.toContain(secret);
  expect(received).toContain('[REDACTED:aws-access-key]');

  await answer.getByTestId('what-was-sent').click();
  const dialog = page.getByTestId('sent-payload');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('[REDACTED:aws-access-key]');
  // Readable first: the system prompt and each message as text; the raw JSON one click away.
  await expect(dialog.getByTestId('sent-payload-readable')).toContainText('System prompt');
  await expect(dialog).toContainText('Environment:');
  await expect(dialog).not.toContainText(secret);
  await dialog.getByTestId('sent-payload-raw').click();
  await expect(dialog.getByTestId('sent-payload-json')).toContainText('"model": "claude-sonnet-5-5"');
  await expect(dialog).not.toContainText(secret);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

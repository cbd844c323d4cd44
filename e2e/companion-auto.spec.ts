import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { enterProject, messages, runCommandTool, step, toolResults, typeInPane, useAgentTandem } from './support/aiPanel';
import { makeHome } from './support/tandemServer';
import { blockOf, waitForPrompt } from './support/uiPage';

// `!auto <task>` in the real UI: real Chromium, `tandem web`, a real bash, the real Anthropic
// SDK against a scripted model. GREEN runs unasked, YELLOW asks (a session grant covers the
// test run the second time), RED is refused and the model told, the edit shows its diff;
// Tandem's summary lists the edited file; Ctrl+C in the pane ends a run mid-step.

const ai = useAgentTandem();

const BROKEN = 'function sum(a, b) {\n  return a - b;\n}\nmodule.exports = sum;\n';

/** A tiny git project whose `node --test` fails. */
function failingProject(home: string): string {
  const project = join(home, 'proj');
  mkdirSync(project);
  writeFileSync(join(project, 'sum.js'), BROKEN);
  writeFileSync(
    join(project, 'sum.test.js'),
    "const test = require('node:test');\nconst assert = require('node:assert');\nconst sum = require('./sum');\ntest('adds', () => assert.strictEqual(sum(2, 3), 5));\n",
  );
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], { cwd: project, env: { ...process.env, HOME: home } });
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'start');
  return project;
}

const editSum = { toolUse: { id: 'e1', name: 'edit_file', input: { path: 'sum.js', edits: [{ old_text: 'return a - b;', new_text: 'return a + b;' }], purpose: 'sum must add' } } };

test('`!auto fix the failing test`: GREEN runs, YELLOW asks, RED is refused, the edit is approved; the summary lists the file; Undo restores it', async ({ page }) => {
  const home = makeHome();
  const project = failingProject(home);
  const { pane, panel } = await ai.start(page, home);
  await enterProject(page, pane, project, '~/proj');

  ai.model.script(
    { parts: [runCommandTool('c1', 'cat sum.test.js'), runCommandTool('c2', 'ls')] },
    { parts: [runCommandTool('t1', 'node --test')] },
    { parts: [editSum] },
    { parts: [runCommandTool('n1', 'npm install left-pad')] },
    { parts: [runCommandTool('r1', 'rm -rf ~')] },
    { parts: [runCommandTool('t2', 'node --test'), runCommandTool('g1', 'git diff')] },
    { parts: [{ text: 'The test passes now.' }] },
  );
  await typeInPane(page, pane, '!auto fix the failing test');

  const status = page.getByTestId('companion-status');
  await expect(status).toHaveAttribute('data-mode', 'auto');
  await expect(status).toContainText('fix the failing test');
  const banner = pane.getByTestId('auto-banner');
  await expect(banner).toContainText('fix the failing test');
  // The keyboard stays in the terminal.
  await expect(page.locator('.xterm-helper-textarea').first()).toBeFocused();

  // GREEN: cat and ls ran without anyone asking.
  for (const command of ['cat sum.test.js', 'ls']) {
    await expect(step(panel, command)).toHaveAttribute('data-status', 'done');
    await expect(step(panel, command)).toHaveAttribute('data-kind', 'command');
    await expect(step(panel, command).getByTestId('step-rule')).toContainText('allowed by auto mode');
  }

  // The test run executes code: YELLOW, it asks; a session grant covers it next time.
  const firstRun = step(panel, 'node --test').first();
  await expect(firstRun.locator('[data-action="approve"]')).toBeEnabled();
  await firstRun.locator('[data-action="allow-session"]').click();
  await expect(firstRun).toHaveAttribute('data-status', 'failed');

  const edit = panel.locator('[data-testid="plan-step"][data-kind="edit"]');
  await expect(edit).toHaveAttribute('data-path', join(project, 'sum.js'));
  await expect(edit.getByTestId('diff').locator('[data-kind="add"]')).toContainText('return a + b;');
  await edit.locator('[data-action="approve"]').click();
  await expect(edit).toHaveAttribute('data-status', 'done');
  expect(readFileSync(join(project, 'sum.js'), 'utf8')).toContain('a + b');

  const install = step(panel, 'npm install left-pad');
  await expect(install.locator('[data-action="approve"]')).toBeEnabled();
  await install.locator('[data-action="deny"]').click();
  await expect(install).toHaveAttribute('data-status', 'denied');

  const red = step(panel, 'rm -rf ~');
  await expect(red).toHaveAttribute('data-status', 'denied');
  await expect(red).toContainText('refused (RED) by auto mode');
  const toldRed = toolResults(await ai.model.waitForRequest(6));
  expect(toldRed).toEqual([expect.objectContaining({ tool_use_id: 'r1', is_error: true, content: expect.stringContaining('refuses RED steps') })]);

  // The grant covers the second test run; git diff is GREEN.
  const secondRun = step(panel, 'node --test').nth(1);
  await expect(secondRun).toHaveAttribute('data-status', 'done');
  await expect(secondRun.getByTestId('step-rule')).toContainText('session grant');
  await expect(step(panel, 'git diff')).toHaveAttribute('data-status', 'done');

  const summary = panel.locator('[data-testid="ai-message"][data-role="summary"]');
  await expect(summary).toHaveAttribute('data-end', 'done');
  await expect(summary.getByTestId('summary-file')).toHaveAttribute('data-path', join(project, 'sum.js'));
  await expect(summary.locator('[data-testid="summary-command"][data-status="failed"]')).toContainText('node --test');
  await expect(summary).toContainText('rm -rf ~');
  await expect(banner).toHaveCount(0);
  await expect(status).toHaveAttribute('data-mode', 'watch');
  expect(messages(ai.model.requests[0]!)).toContain('fix the failing test');

  await edit.locator('[data-action="undo"]').click();
  await expect(edit.getByTestId('undo-result')).toHaveAttribute('data-restored', 'true');
  expect(readFileSync(join(project, 'sum.js'), 'utf8')).toBe(BROKEN);
});

test('Ctrl+C in the pane ends an auto run mid-step: the step is interrupted, the banner goes, the model is not asked again', async ({ page }) => {
  const { pane, panel } = await ai.start(page);
  ai.model.script({ parts: [runCommandTool('s1', 'sleep 30')] });
  await typeInPane(page, pane, '!auto wait for it');
  const running = step(panel, 'sleep 30');
  await expect(running).toHaveAttribute('data-status', 'running');
  await expect(blockOf(pane, 'sleep 30')).toHaveCount(1);
  await expect(pane.getByTestId('auto-banner')).toContainText('step 1');
  await pane.click();
  await page.keyboard.press('Control+c');

  await expect(blockOf(pane, 'sleep 30')).toHaveAttribute('data-exit-code', /\d+/);
  const summary = panel.locator('[data-testid="ai-message"][data-role="summary"]');
  await expect(summary).toHaveAttribute('data-end', 'stopped');
  await expect(summary.getByTestId('summary-left')).toContainText('Ctrl+C');
  await expect(pane.getByTestId('auto-banner')).toHaveCount(0);
  await expect(page.getByTestId('companion-status')).toHaveAttribute('data-mode', 'watch');
  await waitForPrompt(pane);
  expect(ai.model.requests).toHaveLength(1);
});

test('"Auto…" in the palette starts a run from the panel; the banner\'s Stop ends it while a step waits for approval', async ({ page }) => {
  const { pane, panel } = await ai.start(page);
  ai.model.script({ parts: [runCommandTool('y1', 'touch made.txt')] });
  await pane.click();
  await page.keyboard.press('Control+Shift+P');
  await page.keyboard.type('auto');
  await expect(page.getByTestId('palette-item').first()).toHaveAttribute('data-action-id', 'ai.auto');
  await page.keyboard.press('Enter');
  const input = panel.getByTestId('ai-input');
  await expect(input).toBeFocused();
  await expect(input).toHaveValue('!auto ');
  await page.keyboard.type('make a file');
  await page.keyboard.press('Enter');
  await expect(pane.getByTestId('auto-banner')).toContainText('make a file');
  await expect(step(panel, 'touch made.txt').locator('[data-action="approve"]')).toBeEnabled();
  await pane.getByTestId('auto-banner').locator('[data-action="stop"]').click();
  await expect(step(panel, 'touch made.txt')).toHaveAttribute('data-status', 'skipped');
  await expect(panel.locator('[data-testid="ai-message"][data-role="summary"]')).toHaveAttribute('data-end', 'stopped');
  await expect(pane.getByTestId('auto-banner')).toHaveCount(0);
});

test('while the first of two steps runs, the banner and the status bar say step 1, with the task and progress shown whole', async ({ page }) => {
  const { pane, panel } = await ai.start(page);
  ai.model.script({ parts: [runCommandTool('s1', 'sleep 30'), runCommandTool('s2', 'ls')] });
  await typeInPane(page, pane, '!auto make the failing sum test pass again');
  await expect(step(panel, 'sleep 30')).toHaveAttribute('data-status', 'running');
  await expect(step(panel, 'ls')).toHaveAttribute('data-status', 'proposed');
  await expect(pane.getByTestId('auto-progress')).toHaveText(/^step 1, \d+:\d\d$/);
  const status = page.getByTestId('companion-status');
  await expect(status).toHaveText(/^Auto: make the failing sum test pass again\s\(step 1, \d+:\d\d\)$/);
  // Nothing of it is cut off while the bar has room.
  const cut = await status.evaluate((element) => [element, ...element.querySelectorAll('span')].some((part) => part.scrollWidth > part.clientWidth));
  expect(cut).toBe(false);
  await pane.click();
  await page.keyboard.press('Control+c');
  await expect(pane.getByTestId('auto-banner')).toHaveCount(0);
});

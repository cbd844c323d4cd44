import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { enterProject, openPanel, sendFromPanel, toolResults, typeInPane, useAgentTandem } from './support/aiPanel';
import { makeHome } from './support/tandemServer';
import { blockOf } from './support/uiPage';

// File edits by the agent in the real UI: the diff card, approval, Undo. Real Chromium,
// `tandem web`, a real bash, the real Anthropic SDK against a scripted model.

const ai = useAgentTandem();

test('an edit shows its diff, is written once approved, and Undo restores the file', async ({ page }) => {
  const home = makeHome();
  const project = join(home, 'proj');
  mkdirSync(project);
  const file = join(project, 'sum.js');
  writeFileSync(file, 'function sum(a, b) {\n  return a - b;\n}\nmodule.exports = sum;\n');
  const { pane, panel } = await ai.start(page, home);
  await enterProject(page, pane, project, '~/proj');

  ai.model.script(
    { parts: [{ toolUse: { id: 'e1', name: 'edit_file', input: { path: 'sum.js', edits: [{ old_text: 'return a - b;', new_text: 'return a + b;' }], purpose: 'sum adds' } } }] },
    { parts: [{ text: 'Fixed the sign.' }] },
  );
  await sendFromPanel(page, 'fix sum');
  const edit = panel.locator('[data-testid="plan-step"][data-kind="edit"]');
  await expect(edit).toHaveAttribute('data-path', file);
  await expect(edit).toHaveAttribute('data-decision', 'ask');
  const diff = edit.getByTestId('diff');
  await expect(diff.locator('[data-kind="remove"]')).toContainText('return a - b;');
  await expect(diff.locator('[data-kind="add"]')).toContainText('return a + b;');
  expect(readFileSync(file, 'utf8')).toContain('a - b');

  await edit.locator('[data-action="approve"]').click();
  await expect(panel.locator('[data-testid="ai-message"][data-role="assistant"]').last()).toContainText('Fixed the sign.');
  await expect(edit).toHaveAttribute('data-status', 'done');
  expect(readFileSync(file, 'utf8')).toContain('a + b');
  const [result] = toolResults(await ai.model.waitForRequest(2));
  expect(result?.content).toBe(`Edited ${file}: +1 −1 lines. The change is applied.`);

  await edit.locator('[data-action="undo"]').click();
  await expect(edit.getByTestId('undo-result')).toHaveAttribute('data-restored', 'true');
  await expect(edit.locator('[data-action="undo"]')).toHaveCount(0);
  expect(readFileSync(file, 'utf8')).toContain('a - b');
});

test('Undo of a finished edit still works after the window reloads (the engine keeps the conversation)', async ({ page }) => {
  const home = makeHome();
  const project = join(home, 'proj');
  mkdirSync(project);
  const file = join(project, 'notes.txt');
  writeFileSync(file, 'one\ntwo\n');
  const { pane, panel } = await ai.start(page, home);
  await typeInPane(page, pane, 'cd ~/proj && pwd');
  await expect(blockOf(pane, 'cd ~/proj && pwd')).toHaveAttribute('data-exit-code', '0');
  ai.model.script(
    { parts: [{ toolUse: { id: 'w1', name: 'write_file', input: { path: file, content: 'one\n2\n', purpose: 'a digit' } } }] },
    { parts: [{ text: 'Wrote it.' }] },
  );
  await sendFromPanel(page, 'write a digit');
  const edit = panel.locator('[data-testid="plan-step"][data-kind="edit"]');
  await edit.locator('[data-action="approve"]').click();
  await expect(edit).toHaveAttribute('data-status', 'done');
  expect(readFileSync(file, 'utf8')).toBe('one\n2\n');

  await page.reload();
  const reloaded = await openPanel(page);
  const again = reloaded.locator('[data-testid="plan-step"][data-kind="edit"]');
  await expect(again).toHaveAttribute('data-status', 'done');
  await again.locator('[data-action="undo"]').click();
  await expect(again.getByTestId('undo-result')).toHaveAttribute('data-restored', 'true');
  expect(readFileSync(file, 'utf8')).toBe('one\ntwo\n');
});

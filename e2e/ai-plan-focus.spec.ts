import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { enterProject, runCommandTool, sendFromPanel, step, useAgentTandem } from './support/aiPanel';
import { makeHome } from './support/tandemServer';

// Where the keyboard goes after a plan control or field disappears with its step's turn
// (Undo, Deny with reason + Enter, Add note): to the plan card, so the one-letter keys act on
// the next step. Real Chromium, `tandem web`, a real bash, the real SDK against a scripted model.

const ai = useAgentTandem();

/** What has the keyboard, as the page sees it. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const active = document.activeElement;
    if (!active || active === document.body) return 'body';
    return active.getAttribute('data-testid') ?? active.tagName.toLowerCase();
  });
}

async function expectPlanHasKeyboard(page: Page, plan: Locator): Promise<void> {
  await expect.poll(() => focused(page)).toBe('plan');
  await expect(plan).toBeFocused();
}

test('Deny with reason + Enter: the plan card has the keyboard, and Y approves the next step', async ({ page }) => {
  const { panel } = await ai.start(page);
  ai.model.script({ parts: [runCommandTool('d1', 'echo first-step'), runCommandTool('d2', 'echo second-step')] }, { parts: [{ text: 'Done.' }] });
  await sendFromPanel(page, 'two steps');
  const first = step(panel, 'echo first-step');
  await first.locator('[data-action="deny-with-reason"]').click();
  const reason = panel.getByTestId('plan-step-deny-reason');
  await reason.fill('not that one');
  await reason.press('Enter');
  await expect(first).toHaveAttribute('data-status', 'denied');
  await expectPlanHasKeyboard(page, panel.getByTestId('plan'));

  const second = step(panel, 'echo second-step');
  await expect(second.locator('[data-action="approve"]')).toBeVisible();
  await page.keyboard.press('y');
  await expect(second).toHaveAttribute('data-status', 'done');
});

test('Undo on an edit card: the keyboard stays on the plan card, and Y approves the next step', async ({ page }) => {
  const home = makeHome();
  const project = join(home, 'proj');
  mkdirSync(project);
  const file = join(project, 'notes.txt');
  writeFileSync(file, 'one\n');
  const { pane, panel } = await ai.start(page, home);
  await enterProject(page, pane, project, '~/proj');
  ai.model.script(
    {
      parts: [
        { toolUse: { id: 'w1', name: 'write_file', input: { path: 'notes.txt', content: 'two\n', purpose: 'change it' } } },
        runCommandTool('c1', 'echo after-undo'),
      ],
    },
    { parts: [{ text: 'Done.' }] },
  );
  await sendFromPanel(page, 'change the notes');
  const plan = panel.getByTestId('plan');
  const edit = panel.locator('[data-testid="plan-step"][data-kind="edit"]');
  // The user works on the card (a click on it gives it the keyboard).
  await plan.locator('.plan__title').click();
  await expect(plan).toBeFocused();
  await edit.locator('[data-action="approve"]').click();
  await expect(edit).toHaveAttribute('data-status', 'done');
  expect(readFileSync(file, 'utf8')).toBe('two\n');

  await edit.locator('[data-action="undo"]').click();
  await expect(edit.getByTestId('undo-result')).toHaveAttribute('data-restored', 'true');
  expect(readFileSync(file, 'utf8')).toBe('one\n');
  await expectPlanHasKeyboard(page, plan);
  await page.keyboard.press('y');
  await expect(step(panel, 'echo after-undo')).toHaveAttribute('data-status', 'done');
});

test('Undo used from the keyboard (Enter on the button) hands the keyboard to the plan card', async ({ page }) => {
  const home = makeHome();
  const file = join(home, 'keys.txt');
  writeFileSync(file, 'old\n');
  const { panel } = await ai.start(page, home);
  ai.model.script(
    { parts: [{ toolUse: { id: 'w1', name: 'write_file', input: { path: file, content: 'new\n', purpose: 'change it' } } }, runCommandTool('c1', 'echo next-one')] },
    { parts: [{ text: 'Done.' }] },
  );
  await sendFromPanel(page, 'change keys.txt');
  const plan = panel.getByTestId('plan');
  const edit = panel.locator('[data-testid="plan-step"][data-kind="edit"]');
  await edit.locator('[data-action="approve"]').click();
  await expect(edit).toHaveAttribute('data-status', 'done');
  const undo = edit.locator('[data-action="undo"]');
  await undo.focus();
  await page.keyboard.press('Enter');
  await expect(edit.getByTestId('undo-result')).toHaveAttribute('data-restored', 'true');
  await expectPlanHasKeyboard(page, plan);
  await page.keyboard.press('y');
  await expect(step(panel, 'echo next-one')).toHaveAttribute('data-status', 'done');
});

test('Add note + Enter: the plan card has the keyboard, and Y approves the revised plan\'s step', async ({ page }) => {
  const { panel } = await ai.start(page);
  ai.model.script(
    { parts: [runCommandTool('n1', 'echo original-one'), runCommandTool('n2', 'echo original-two')] },
    { parts: [runCommandTool('n3', 'echo revised-step')] },
    { parts: [{ text: 'Done.' }] },
  );
  await sendFromPanel(page, 'a plan to revise');
  await expect(step(panel, 'echo original-one').locator('[data-action="approve"]')).toBeVisible();
  const note = panel.getByTestId('plan-note');
  await note.fill('say revised instead');
  await note.press('Enter');
  const revised = step(panel, 'echo revised-step');
  await expect(revised.locator('[data-action="approve"]')).toBeVisible();
  await expect.poll(() => focused(page)).toBe('plan');
  await page.keyboard.press('y');
  await expect(revised).toHaveAttribute('data-status', 'done');
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { messages, openPanel, useAgentTandem, runCommandTool, sendFromPanel, step, toolResults, typeInPane } from './support/aiPanel';
import { bufferText, runCommand } from './support/terminalPage';
import { blockOf, waitForPrompt } from './support/uiPage';

// The AI panel end to end: real Chromium, `tandem web`, a real bash, the real Anthropic SDK
// in the engine talking to a scripted model server on loopback.

const ai = useAgentTandem();


test('`# ` at the prompt → plan → approve → the command runs in the pane → its block goes back → answer', async ({ page }) => {
  const { pane, panel, server } = await ai.start(page);
  ai.model.script({ parts: [{ text: 'Listing the files.' }, runCommandTool('toolu_ls', 'ls -a', 'list files')] }, { parts: [{ text: 'There are **hidden** files.' }] });
  await typeInPane(page, pane, '# list the files here');

  await expect(panel).toBeVisible();
  await expect(panel.locator('[data-testid="ai-message"][data-role="user"]')).toContainText('list the files here');
  const proposed = step(panel, 'ls -a');
  await expect(proposed).toHaveAttribute('data-status', 'proposed');
  expect(messages(await ai.model.waitForRequest(1))).toContain('list the files here');

  await proposed.locator('[data-action="approve"]').click();
  const block = blockOf(pane, 'ls -a');
  await expect(block).toHaveAttribute('data-exit-code', '0');
  await expect(proposed).toHaveAttribute('data-status', 'done');
  const [result] = toolResults(await ai.model.waitForRequest(2));
  expect(result?.tool_use_id).toBe('toolu_ls');
  expect(result?.content).toContain('Exit code: 0');
  expect(result?.content).toContain('.bashrc');
  const answer = panel.locator('[data-testid="ai-message"][data-role="assistant"]').last();
  await expect(answer).toContainText('There are hidden files.');
  await expect(answer.locator('strong')).toHaveText('hidden');

  // The instruction never reached the shell or its history.
  await runCommand(page, pane, 'history -a');
  expect(readFileSync(join(server.home, '.bash_history'), 'utf8')).not.toContain('list the files here');
});

test('deny tells the model, edit runs the edited command, skip and Allow all', async ({ page }) => {
  const { pane, panel } = await ai.start(page);
  ai.model.script(
    { parts: [runCommandTool('d1', 'echo denied-one'), runCommandTool('d2', 'echo edit-me'), runCommandTool('d3', 'echo skip-me'), runCommandTool('d4', 'echo all-four')] },
    { parts: [{ text: 'Noted the denial.' }] },
  );
  await sendFromPanel(page, 'four steps please');
  await expect(panel.getByTestId('plan-step')).toHaveCount(4);

  await step(panel, 'echo denied-one').locator('[data-action="deny"]').click();
  await expect(step(panel, 'echo denied-one')).toHaveAttribute('data-status', 'denied');

  await step(panel, 'echo edit-me').locator('[data-action="edit"]').click();
  const editor = panel.getByTestId('plan-step-editor');
  await editor.fill('echo edited-by-user');
  await editor.press('Enter');

  await step(panel, 'echo skip-me').locator('[data-action="skip"]').click();
  await panel.locator('[data-testid="plan"] [data-action="allow-all"]').click();

  await expect(blockOf(pane, 'echo all-four')).toHaveAttribute('data-exit-code', '0');
  const results = toolResults(await ai.model.waitForRequest(2));
  expect(results.map((r) => r.tool_use_id)).toEqual(['d1', 'd2', 'd3', 'd4']);
  expect(results[0]).toMatchObject({ is_error: true });
  expect(results[0]?.content).toContain('denied');
  expect(results[1]?.content).toContain('edited-by-user');
  expect(results[2]?.content).toContain('skipped');
  await expect(panel.locator('[data-testid="ai-message"][data-role="assistant"]').last()).toContainText('Noted the denial.');
  await expect(blockOf(pane, 'echo edited-by-user')).toHaveCount(1);
  await expect(blockOf(pane, 'echo denied-one')).toHaveCount(0);
  await expect(blockOf(pane, 'echo skip-me')).toHaveCount(0);
});

test('a failing step stops the plan; a note yields a revised plan', async ({ page }) => {
  const { pane, panel } = await ai.start(page);
  ai.model.script(
    { parts: [runCommandTool('f1', 'ls /no-such-dir'), runCommandTool('f2', 'echo after-failure')] },
    { parts: [{ text: 'Revised.' }, runCommandTool('f3', 'ls /')] },
  );
  await sendFromPanel(page, 'look around');
  await expect(panel.getByTestId('plan-step')).toHaveCount(2);
  await panel.locator('[data-testid="plan"] [data-action="allow-all"]').click();
  await expect(step(panel, 'ls /no-such-dir')).toHaveAttribute('data-status', 'failed');
  const plan = panel.getByTestId('plan').first();
  await expect(plan).toHaveAttribute('data-state', 'halted');
  await expect(panel.getByTestId('plan-halt')).toContainText('exited with code 2');
  await expect(step(panel, 'echo after-failure')).toHaveAttribute('data-status', 'proposed');
  await expect(blockOf(pane, 'echo after-failure')).toHaveCount(0);

  await panel.getByTestId('plan-note').fill('list / instead');
  await panel.locator('[data-action="add-note"]').click();
  const request = await ai.model.waitForRequest(2);
  expect(messages(request)).toContain('list / instead');
  expect(toolResults(request).find((r) => r.tool_use_id === 'f2')?.content).toContain('added a note');
  await expect(step(panel, 'ls /')).toHaveAttribute('data-status', 'proposed');
  await expect(step(panel, 'echo after-failure')).toHaveAttribute('data-status', 'skipped');
});

test('drag a failed block into the panel; `??` asks about the last command', async ({ page }) => {
  const { pane, panel } = await ai.start(page);
  const failed = await runCommand(page, pane, 'cat /etc/no-such-file');
  await expect(failed).toHaveAttribute('data-exit-code', '1');
  await openPanel(page);
  await failed.locator('.block__gutter').dragTo(panel);
  const chip = panel.getByTestId('attachment');
  await expect(chip).toHaveAttribute('data-block-id', (await failed.getAttribute('data-block-id'))!);

  ai.model.script({ parts: [{ text: 'The file does not exist.' }] }, { parts: [{ text: 'Still missing.' }] });
  await sendFromPanel(page, 'why?');
  const first = messages(await ai.model.waitForRequest(1));
  expect(first).toContain('cat /etc/no-such-file');
  expect(first).toContain('No such file or directory');
  await expect(panel.locator('[data-testid="ai-message"][data-role="assistant"]').last()).toContainText('does not exist');
  await expect(chip).toHaveCount(0);

  await waitForPrompt(pane);
  await typeInPane(page, pane, '??');
  const second = messages(await ai.model.waitForRequest(2));
  expect(second).toContain('What happened with this command');
  expect(second).toContain('cat /etc/no-such-file');
  await expect(panel.locator('[data-testid="ai-message"][data-role="assistant"]').last()).toContainText('Still missing.');
});

test('Esc cancels a streaming answer at once; the server sees the connection closed', async ({ page }) => {
  const { panel } = await ai.start(page);
  ai.model.script({ parts: [{ text: 'A long answer that keeps streaming' }], holdAfterEvents: 5 });
  await sendFromPanel(page, 'talk');
  const request = await ai.model.waitForRequest(1);
  await expect(panel.getByTestId('ai-status')).toHaveAttribute('data-status', 'streaming');
  await panel.getByTestId('ai-input').press('Escape');
  // The server holds the stream open forever: only the cancel can bring the panel back to idle.
  await expect(panel.getByTestId('ai-status')).toHaveAttribute('data-status', 'idle');
  await request.closed;
  expect(request.closedByClient).toBe(true);
  await expect(panel.getByTestId('interrupted')).toBeVisible();
});

test('cancelling a running step sends it SIGINT', async ({ page }) => {
  const { pane, panel } = await ai.start(page);
  ai.model.script({ parts: [runCommandTool('s1', 'sleep 60')] }, { parts: [{ text: 'Interrupted.' }] });
  await sendFromPanel(page, 'wait a minute');
  await step(panel, 'sleep 60').locator('[data-action="approve"]').click();
  await expect(step(panel, 'sleep 60')).toHaveAttribute('data-status', 'running');
  await expect(blockOf(pane, 'sleep 60')).toHaveCount(1);
  await panel.getByTestId('ai-input').press('Escape');
  await expect(blockOf(pane, 'sleep 60')).toHaveAttribute('data-exit-code', '130');
  expect(toolResults(await ai.model.waitForRequest(2))[0]?.content).toContain('It was interrupted: the user stopped it from the AI panel.');
});

test('errors: 401, 429 with retry-after, 500, a cut stream and malformed SSE each say what happened', async ({ page }) => {
  const { panel } = await ai.start(page);
  const lastError = () => panel.locator('[data-testid="ai-message"][data-role="error"]').last();

  ai.model.script({ status: 401 });
  await sendFromPanel(page, 'one');
  await expect(lastError()).toContainText('API key was refused (401)');

  ai.model.script({ status: 429, headers: { 'retry-after': '1' } }, { parts: [{ text: 'After waiting.' }] });
  await sendFromPanel(page, 'two');
  await expect(panel.getByTestId('ai-status')).toHaveAttribute('data-status', 'retrying');
  await expect(panel.locator('[data-testid="ai-message"][data-role="assistant"]').last()).toContainText('After waiting.');

  const fail = { status: 500, headers: { 'retry-after': '0' } };
  ai.model.script(fail, fail, fail, fail, fail);
  await sendFromPanel(page, 'three');
  await expect(lastError()).toContainText('failed (500)');

  ai.model.script({ parts: [{ text: 'Half an answer before the cut' }], cutAfterEvents: 5 });
  await sendFromPanel(page, 'four');
  await expect(lastError()).toContainText('broke off');
  await expect(panel.locator('[data-testid="ai-message"][data-role="assistant"]').last()).toContainText('Half');

  ai.model.script({ parts: [{ text: 'Garbled' }], malformed: true });
  await sendFromPanel(page, 'five');
  await expect(panel.locator('[data-testid="ai-message"][data-role="error"]')).toHaveCount(4);
});

test('`# ` inside a heredoc, python3 and vi goes to the program, not the agent', async ({ page }) => {
  const { pane, paneId, panel } = await ai.start(page);
  await pane.click();
  await page.keyboard.type('cat <<EOF');
  await page.keyboard.press('Enter');
  await page.keyboard.type('# heredoc line');
  await page.keyboard.press('Enter');
  await page.keyboard.type('EOF');
  await page.keyboard.press('Enter');
  await expect(pane.locator('[data-testid="block"][data-command^="cat <<EOF"]')).toHaveAttribute('data-exit-code', '0');

  await page.keyboard.type('python3 -q');
  await page.keyboard.press('Enter');
  await expect.poll(() => bufferText(page, paneId)).toContain('>>> ');
  await page.keyboard.type('# python comment');
  await page.keyboard.press('Enter');
  await page.keyboard.type('exit()');
  await page.keyboard.press('Enter');
  await expect(blockOf(pane, 'python3 -q')).toHaveAttribute('data-exit-code', '0');

  await page.keyboard.type('vi -u NONE');
  await page.keyboard.press('Enter');
  await expect(blockOf(pane, 'vi -u NONE')).toHaveCount(1);
  await page.keyboard.type('i# vi text');
  await page.keyboard.press('Escape');
  await page.keyboard.type(':q!');
  await page.keyboard.press('Enter');
  await expect(blockOf(pane, 'vi -u NONE')).toHaveAttribute('data-exit-code', '0');

  expect(ai.model.requests).toHaveLength(0);
  await expect(panel.locator('[data-testid="ai-message"]')).toHaveCount(0);
});

test('the model can be switched for one conversation from the panel header', async ({ page }) => {
  const { panel } = await ai.start(page);
  await openPanel(page);
  await expect(panel.getByTestId('ai-model')).toHaveText('claude-sonnet-5-5');
  await panel.getByTestId('ai-model').click();
  const picker = panel.getByTestId('ai-model-picker');
  await picker.locator('input').fill('claude-haiku-5-5');
  await picker.locator('input').press('Enter');
  await expect(panel.getByTestId('ai-model')).toHaveText('claude-haiku-5-5');
  ai.model.script({ parts: [{ text: 'Haiku here.' }] });
  await sendFromPanel(page, 'who are you');
  expect((await ai.model.waitForRequest(1)).body?.model).toBe('claude-haiku-5-5');
  await expect(panel.locator('[data-testid="ai-message"][data-role="assistant"]').last()).toContainText('Haiku here.');
});

test('`! cmd` runs in the pane and joins the conversation; commands run meanwhile are offered', async ({ page }) => {
  const { pane, panel } = await ai.start(page);
  await sendFromPanel(page, '! echo from-the-panel');
  await expect(blockOf(pane, 'echo from-the-panel')).toHaveAttribute('data-exit-code', '0');
  await expect(panel.locator('[data-testid="ai-message"][data-role="tool"]').last()).toContainText('echo from-the-panel');

  // Work in the terminal, then come back to the panel: the new command is offered, not the panel's own.
  await runCommand(page, pane, 'echo typed-in-terminal');
  await panel.getByTestId('ai-input').click();
  const offer = panel.getByTestId('share-offer');
  await expect(offer).toHaveAttribute('data-count', '1');
  await offer.getByTestId('share-yes').click();
  const typed = blockOf(pane, 'echo typed-in-terminal');
  await expect(panel.getByTestId('attachment')).toHaveAttribute('data-block-id', (await typed.getAttribute('data-block-id'))!);

  ai.model.script({ parts: [{ text: 'Seen both.' }] });
  await sendFromPanel(page, 'what did I do?');
  const sent = messages(await ai.model.waitForRequest(1));
  expect(sent).toContain('The user ran a command themselves');
  expect(sent).toContain('from-the-panel');
  expect(sent).toContain('typed-in-terminal');
});

test('without a key the terminal works and the panel says how to connect a model', async ({ page }) => {
  const { pane } = await ai.tandem.start(page);
  const panel = await openPanel(page);
  await expect(panel.getByTestId('ai-setup-hint')).toContainText('ANTHROPIC_API_KEY');
  await expect(runCommand(page, pane, 'echo still-a-terminal')).resolves.toBeTruthy();
});

test('without a model, the "Connect a model" card takes its own small space, and each refused message says so briefly, pointing at it', async ({ page }) => {
  await page.setViewportSize({ width: 1200, height: 600 });
  const { pane } = await ai.tandem.start(page);
  await typeInPane(page, pane, '# what is here');
  const panel = page.getByTestId('ai-panel');
  const errors = panel.locator('[data-testid="ai-message"][data-role="error"]');
  await expect(errors).toHaveCount(1);
  await typeInPane(page, pane, '??');
  await expect(errors).toHaveCount(2);
  await sendFromPanel(page, 'hello there');
  await expect(errors).toHaveCount(3);

  const card = panel.getByTestId('ai-setup-hint');
  await expect(card).toContainText('Connect a model');
  // The how-to is said once, in the card (folded out on demand), not in every error.
  await expect(card).toContainText('ANTHROPIC_API_KEY');
  for (const error of await errors.all()) {
    await expect(error).toContainText('no model is connected');
    await expect(error).toContainText('Connect a model');
    await expect(error).not.toContainText('ANTHROPIC_API_KEY');
  }
  // Its own space above the conversation, a small part of the panel: the messages keep theirs.
  const list = panel.locator('.ai-messages');
  await list.evaluate((element) => (element.scrollTop = 0));
  const [cardBox, listBox, panelBox] = [(await card.boundingBox())!, (await list.boundingBox())!, (await panel.boundingBox())!];
  expect(cardBox.y + cardBox.height).toBeLessThanOrEqual(listBox.y + 0.5);
  expect(cardBox.height).toBeLessThan(panelBox.height / 4);
  await expect(panel.getByTestId('ai-message').first()).toBeInViewport({ ratio: 1 });
});

test('code in an answer can be copied, or inserted at the prompt without running', async ({ page }) => {
  const { pane, paneId, panel } = await ai.start(page);
  ai.model.script({ parts: [{ text: 'Try this:\n\n```bash\necho inserted-not-run\n```\n' }] });
  await sendFromPanel(page, 'how do I print something?');
  const code = panel.getByTestId('ai-code');
  await expect(code).toContainText('echo inserted-not-run');
  await code.locator('[data-action="insert-code"]').click();
  await expect.poll(() => bufferText(page, paneId)).toMatch(/\$ echo inserted-not-run\s*$/);
  // Nothing ran: no block, and the line waits for the user's Enter.
  await expect(blockOf(pane, 'echo inserted-not-run')).toHaveCount(0);
  await pane.click();
  await page.keyboard.press('Enter');
  await expect(blockOf(pane, 'echo inserted-not-run')).toHaveAttribute('data-exit-code', '0');
});

test('a RED step shows blocked: Approve is disabled and Allow all does not run it', async ({ page }) => {
  const { pane, panel } = await ai.start(page);
  ai.model.script({ parts: [runCommandTool('x1', 'echo safe-first'), runCommandTool('x2', 'sudo rm -rf /')] }, { parts: [{ text: 'Not doing that.' }] });
  await sendFromPanel(page, 'wipe the disk');
  const red = step(panel, 'sudo rm -rf /');
  await expect(red).toHaveAttribute('data-risk', 'red');
  await expect(red.getByTestId('step-status')).toHaveText('blocked');
  // Why it is RED is on the card, not only in the badge's tooltip.
  const reasons = (await red.getByTestId('step-risk').getAttribute('title'))!;
  await expect(red.getByTestId('step-risk-why')).toHaveText(`RED: ${reasons.split('\n').join(' ')}`);
  await expect(step(panel, 'echo safe-first')).toHaveAttribute('data-risk', 'green');

  await panel.locator('[data-testid="plan"] [data-action="allow-all"]').click();
  await expect(blockOf(pane, 'echo safe-first')).toHaveAttribute('data-exit-code', '0');
  await expect(panel.getByTestId('ai-status')).toHaveAttribute('data-status', 'awaiting-approval');
  await expect(red).toHaveAttribute('data-status', 'proposed');
  // Now it is the step waiting for a decision: Approve is there, and disabled.
  await expect(red.locator('[data-action="approve"]')).toBeDisabled();
  await expect(red.getByTestId('step-rule')).toContainText('blocked ·');

  await red.locator('[data-action="deny"]').click();
  const results = toolResults(await ai.model.waitForRequest(2));
  expect(results[1]?.content).toContain('denied');
  await expect(panel.locator('[data-testid="ai-message"][data-role="assistant"]').last()).toContainText('Not doing that.');
  await expect(pane.locator('[data-testid="block"][data-command="sudo rm -rf /"]')).toHaveCount(0);
});

test('a retry waits in a card with a live countdown and Cancel; cancelled, it stays as a marker; the header stays short', async ({ page }) => {
  const { panel } = await ai.start(page);
  ai.model.script({ status: 429, headers: { 'retry-after': '30' } }, { parts: [{ text: 'Never sent.' }] });
  await sendFromPanel(page, 'hello');
  const card = panel.locator('[data-testid="ai-message"][data-role="retry"]');
  await expect(card).toHaveAttribute('data-state', 'waiting');
  await expect(card).toContainText('Rate limited by');
  await expect(card).toContainText('attempt 2 of 5');
  const countdown = card.getByTestId('retry-countdown');
  const first = Number(await countdown.getAttribute('data-seconds'));
  expect(first).toBeGreaterThan(20);
  // The countdown moves on by itself.
  await expect.poll(async () => Number(await countdown.getAttribute('data-seconds'))).toBeLessThan(first);
  await expect(countdown).toContainText(/Sending it again in \d+ s/);
  // No "writing" cursor above the card while nothing is being written.
  await expect(panel.locator('.ai-message__cursor')).toHaveCount(0);

  // The header says a few words that fit its box; the long story is in the card (and the tooltip).
  const status = panel.getByTestId('ai-status');
  await expect(status).toHaveAttribute('data-status', 'retrying');
  await expect(status).toHaveText('Retrying…');
  expect(await status.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
  await expect(status).toHaveAttribute('title', /Rate limited by .* Retrying in \d+ s/);

  await card.getByTestId('retry-cancel').click();
  await expect(status).toHaveAttribute('data-status', 'idle');
  await expect(card).toHaveAttribute('data-state', 'cancelled');
  await expect(card).toContainText('Retry cancelled');
  await expect(card.getByTestId('retry-cancel')).toHaveCount(0);
  expect(ai.model.requests).toHaveLength(1);
});

test('a connection cut mid-answer says so once, and Retry asks again', async ({ page }) => {
  const { panel } = await ai.start(page);
  ai.model.script({ parts: [{ text: 'Half an answer before the cut' }], cutAfterEvents: 5 }, { parts: [{ text: 'The full answer.' }] });
  await sendFromPanel(page, 'tell me');
  const error = panel.locator('[data-testid="ai-message"][data-role="error"]');
  await expect(error).toContainText('broke off');
  await expect(panel.getByTestId('interrupted')).toHaveCount(0);
  await expect(error).toHaveCount(1);
  await error.getByTestId('error-retry').click();
  await expect(panel.locator('[data-testid="ai-message"][data-role="assistant"]').last()).toContainText('The full answer.');
  await expect(error.getByTestId('error-retry')).toHaveCount(0);
});

test('under Allow all, while step 1 runs, step 2 has no live buttons and the keys do not act on it', async ({ page }) => {
  const { pane, panel } = await ai.start(page);
  ai.model.script({ parts: [runCommandTool('w1', 'read -r answer; echo got-$answer'), runCommandTool('w2', 'echo second-step')] }, { parts: [{ text: 'Both ran.' }] });
  await sendFromPanel(page, 'two steps');
  await expect(panel.getByTestId('plan-step')).toHaveCount(2);
  await panel.locator('[data-testid="plan"] [data-action="allow-all"]').click();
  const first = step(panel, 'read -r answer; echo got-$answer');
  const second = step(panel, 'echo second-step');
  await expect(first).toHaveAttribute('data-status', 'running');
  await expect(first.getByTestId('step-rule')).toHaveText('allowed by Allow all');
  await expect(second).toHaveAttribute('data-status', 'proposed');
  // No decision button (its trace id's Copy is not one).
  await expect(second.locator('button:not([data-action="copy-trace-id"])')).toHaveCount(0);
  await expect(second.getByTestId('step-rule')).toHaveCount(0);
  await expect(panel.locator('.plan__keys')).toHaveCount(0);
  // N on the focused plan card would have denied step 2; now nothing takes it.
  await panel.getByTestId('plan').focus();
  await page.keyboard.press('n');
  await expect(second).toHaveAttribute('data-status', 'proposed');

  await pane.click();
  await page.keyboard.type('yes');
  await page.keyboard.press('Enter');
  await expect(second).toHaveAttribute('data-status', 'done');
  await expect(second.getByTestId('step-rule')).toHaveText('allowed by Allow all');
  await expect(blockOf(pane, 'echo second-step')).toHaveAttribute('data-exit-code', '0');
});

test('Esc in a plan field only leaves it: the plan stays, the note stays, a closed edit comes back', async ({ page }) => {
  const { panel } = await ai.start(page);
  ai.model.script({ parts: [runCommandTool('e1', 'echo keep-me'), runCommandTool('e2', 'echo later')] });
  await sendFromPanel(page, 'a plan');
  const plan = panel.getByTestId('plan');
  await expect(step(panel, 'echo keep-me').locator('[data-action="approve"]')).toBeVisible();

  const note = panel.getByTestId('plan-note');
  await note.fill('use /tmp instead');
  await note.press('Escape');
  await expect(plan).toBeFocused();
  await expect(plan).toHaveAttribute('data-state', 'active');
  await expect(note).toHaveValue('use /tmp instead');

  await step(panel, 'echo keep-me').locator('[data-action="edit"]').click();
  const editor = panel.getByTestId('plan-step-editor');
  await editor.fill('echo edited-draft');
  await editor.press('Escape');
  await expect(editor).toHaveCount(0);
  await expect(plan).toHaveAttribute('data-state', 'active');
  await step(panel, 'echo keep-me').locator('[data-action="edit"]').click();
  await expect(panel.getByTestId('plan-step-editor')).toHaveValue('echo edited-draft');
  await panel.locator('[data-action="cancel-edit"]').click();

  await step(panel, 'echo keep-me').locator('[data-action="deny-with-reason"]').click();
  const reason = panel.getByTestId('plan-step-deny-reason');
  await reason.fill('not here');
  await reason.press('Escape');
  await expect(reason).toHaveCount(0);
  await step(panel, 'echo keep-me').locator('[data-action="deny-with-reason"]').click();
  await expect(panel.getByTestId('plan-step-deny-reason')).toHaveValue('not here');
  await expect(plan).toHaveAttribute('data-state', 'active');

  // The panel's own input too, while the plan waits: Esc goes to the plan card, the message stays.
  const input = panel.getByTestId('ai-input');
  await input.fill('half-typed message');
  await input.press('Escape');
  await expect(plan).toBeFocused();
  await expect(plan).toHaveAttribute('data-state', 'active');
  await expect(input).toHaveValue('half-typed message');
  // Esc again, from the card, cancels the plan.
  await page.keyboard.press('Escape');
  await expect(plan).toHaveAttribute('data-state', 'cancelled');
});

test('a Markdown table at the default panel width wraps between words, never inside one', async ({ page }) => {
  const { panel } = await ai.start(page);
  const table = [
    '| File | What it holds | Size |',
    '| --- | --- | --- |',
    '| `package-lock.json` | the exact versions of every installed dependency, transitively resolved | 412 KB |',
    '| packaging/electron-builder.yml | installers, signing and publishing configuration for releases | 3 KB |',
  ].join('\n');
  ai.model.script({ parts: [{ text: `Here:\n\n${table}\n` }] });
  await sendFromPanel(page, 'files?');
  const cells = panel.locator('.ai-table td, .ai-table th');
  await expect(cells).toHaveCount(9);
  // Every word of every cell sits on one line.
  const brokenWords = await panel.locator('.ai-table').evaluate((wrapper) => {
    const broken: string[] = [];
    const walker = document.createTreeWalker(wrapper, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (const match of text.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
        if (lines.size > 1) broken.push(match[0]);
      }
    }
    return broken;
  });
  expect(brokenWords).toEqual([]);
});

test("the model picker offers the chosen backend's models: the endpoint's own list, else suggestions", async ({ page }) => {
  const { panel } = await ai.start(page);
  ai.model.listModels(['claude-from-endpoint-1', 'claude-from-endpoint-2']);
  await openPanel(page);
  await panel.getByTestId('ai-model').click();
  const list = panel.getByTestId('ai-model-list');
  await expect(list).toHaveAttribute('data-source', 'endpoint');
  await expect(panel.getByTestId('ai-model-source')).toHaveText('2 from the endpoint');
  expect(await list.locator('option').evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value))).toEqual([
    'claude-from-endpoint-1',
    'claude-from-endpoint-2',
  ]);
  await panel.getByLabel('Backend for this conversation').selectOption('openai-compatible');
  await expect(list).toHaveAttribute('data-backend', 'openai-compatible');
  await expect(list).toHaveAttribute('data-source', 'catalog');
  await expect(panel.getByTestId('ai-model-source')).toHaveText('suggestions');
  const suggested = await list.locator('option').evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
  expect(suggested).toContain('gpt-5');
  expect(suggested.some((id) => id.startsWith('claude'))).toBe(false);
});

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { RecordedRequest, ScriptedReply } from '../test/support/modelServer';
import { runCommandTool, sendFromPanel, toolResults, useAgentTandem } from './support/aiPanel';

// Approvals bubble up: the agent in the panel hands a task to a child agent (spawn_agent), the
// child — a real `tandem agent` started in the pane, with its own shell in its own pty — asks
// before it changes anything, and the user decides on a card nested under the spawn step.
// One scripted model server answers both agents; the child's requests are told apart by its
// instruction in their first message.

const ai = useAgentTandem();

const INSTRUCTION = 'create the marker file in the home folder';
const ANSWER = 'Created child-marker.txt.';

/** Who sent a model request: the child's conversation starts with its instruction. */
function fromChild(request: RecordedRequest): boolean {
  return JSON.stringify(request.body?.messages?.[0]?.content ?? '').includes(INSTRUCTION);
}

/** Serves each agent its own script, in order, and keeps each one's requests. */
function scriptBothAgents(parent: ScriptedReply[], child: ScriptedReply[]) {
  const requests = { parent: [] as RecordedRequest[], child: [] as RecordedRequest[] };
  ai.model.respond((request) => {
    const who = fromChild(request) ? 'child' : 'parent';
    requests[who].push(request);
    return (who === 'child' ? child : parent).shift() ?? { status: 500, message: `no reply scripted for the ${who} agent's request #${requests[who].length}` };
  });
  return requests;
}

test("a child agent's step that asks is decided on the spawn step's card; the child's answer is the spawn's result", async ({ page }) => {
  const { panel, server } = await ai.start(page);
  const requests = scriptBothAgents(
    [[{ toolUse: { id: 'toolu_spawn', name: 'spawn_agent', input: { instruction: INSTRUCTION } } }], [{ text: 'The child agent made the marker.' }]],
    [
      [runCommandTool('toolu_c1', 'touch wrong-name.txt', 'make the marker')],
      [runCommandTool('toolu_c2', 'touch child-marker.txt', 'make the marker, named as asked')],
      [{ text: ANSWER }],
    ],
  );
  await sendFromPanel(page, 'hand the marker file to a child agent');

  // The spawn step, before it is allowed: what the child will be asked and may do.
  const spawn = panel.locator('[data-testid="plan-step"]:has([data-testid="child-agent"])');
  await expect(spawn).toHaveAttribute('data-status', 'proposed');
  const child = spawn.getByTestId('child-agent');
  await expect(child.getByTestId('child-instruction')).toHaveText(INSTRUCTION);
  await expect(child.getByTestId('child-may')).not.toBeEmpty();
  await spawn.locator('[data-action="approve"]').click();

  // The child's first step asks: a card nested under the spawn step says who asks.
  const first = spawn.getByRole('group', { name: 'The child agent asks to run: touch wrong-name.txt' });
  await expect(first).toBeVisible();
  await expect(child).toHaveAttribute('data-state', 'running');
  await expect(child.getByTestId('child-who')).toHaveText(/^Child agent · depth 1 · pid \d+$/);
  await expect(first).toContainText((await child.getByTestId('child-who').textContent())!);
  await expect(first.getByTestId('child-approval-rule')).toContainText('asks you');
  // The child is a process of its own: a `tandem agent` run.
  const pid = await child.getAttribute('data-pid');
  expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')).toContain('agent');

  // Deny with a reason: the child's model is told, and nothing ran.
  await first.getByRole('button', { name: 'Deny with reason…' }).click();
  const reason = first.getByRole('textbox', { name: 'Why not? (the child agent is told)' });
  await reason.fill('call it child-marker.txt');
  await reason.press('Enter');
  await expect(first).toHaveCount(0);
  await expect(child.locator('[data-testid="child-step"][data-command="touch wrong-name.txt"]')).toHaveAttribute('data-status', 'denied');
  await expect.poll(() => requests.child.length).toBeGreaterThanOrEqual(2);
  expect(JSON.stringify(toolResults(requests.child[1]!))).toContain('call it child-marker.txt');
  expect(existsSync(join(server.home, 'wrong-name.txt'))).toBe(false);

  // Allow: the child runs its step in its own shell.
  const second = spawn.getByRole('group', { name: 'The child agent asks to run: touch child-marker.txt' });
  await second.getByRole('button', { name: 'Allow', exact: true }).click();
  await expect(second).toHaveCount(0);
  const row = child.locator('[data-testid="child-step"][data-command="touch child-marker.txt"]');
  await expect(row).toHaveAttribute('data-status', 'done');
  await expect(row).toHaveAttribute('data-exit-code', '0');
  await expect.poll(() => existsSync(join(server.home, 'child-marker.txt'))).toBe(true);

  // The child ends with its answer; the spawn step is done and its result is that answer.
  await expect(child).toHaveAttribute('data-state', 'done');
  await expect(child.getByTestId('child-answer')).toContainText(ANSWER);
  await expect(child.getByTestId('child-usage')).toContainText('tokens');
  await expect(spawn).toHaveAttribute('data-status', 'done');
  await expect.poll(() => requests.parent.length).toBe(2);
  const [result] = toolResults(requests.parent[1]!);
  expect(result?.tool_use_id).toBe('toolu_spawn');
  expect(JSON.stringify(result?.content)).toContain(ANSWER);
  await expect(panel.locator('[data-testid="ai-message"][data-role="assistant"]').last()).toContainText('The child agent made the marker.');
});

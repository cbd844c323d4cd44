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

test('a child that runs a command and spawns a grandchild: the grandchild asks on the same card, and the trace links the three processes', async ({ page }) => {
  const { panel, server } = await ai.start(page);
  const GRANDCHILD = 'say hello from the grandchild';
  const CHILD = 'run one command and hand one part on';
  const replies: Record<'parent' | 'child' | 'grandchild', ScriptedReply[]> = {
    parent: [[{ toolUse: { id: 'toolu_spawn', name: 'spawn_agent', input: { instruction: CHILD } } }], [{ text: 'The tree is done.' }]],
    child: [
      [runCommandTool('toolu_c1', 'echo from-child', 'say hello'), { toolUse: { id: 'toolu_c2', name: 'spawn_agent', input: { instruction: GRANDCHILD } } }],
      [{ text: 'Child done.' }],
    ],
    grandchild: [[runCommandTool('toolu_g1', 'echo from-grandchild', 'say hello')], [{ text: 'Grandchild done.' }]],
  };
  ai.model.respond((request) => {
    const first = JSON.stringify(request.body?.messages?.[0]?.content ?? '');
    const who = first.includes(GRANDCHILD) ? 'grandchild' : first.includes(CHILD) ? 'child' : 'parent';
    return replies[who].shift() ?? { status: 500, message: `no reply scripted for the ${who}` };
  });
  await sendFromPanel(page, 'do it with a tree of agents');

  const spawn = panel.locator('[data-testid="plan-step"]:has([data-testid="child-agent"])');
  await spawn.locator('[data-action="approve"]').click();
  const child = spawn.getByTestId('child-agent');
  // Every step below asks here, on the spawn step's card: the child's command, its spawn, the grandchild's command.
  for (const command of ['echo from-child', /agent --parent .* -c '?say hello from the grandchild/, 'echo from-grandchild']) {
    const asking = spawn.locator('[data-testid="child-approval"]').filter({ hasText: command });
    await expect(asking).toHaveCount(1);
    if (command === 'echo from-grandchild') await expect(asking).toContainText(/depth 2/);
    await asking.getByRole('button', { name: 'Allow', exact: true }).click();
    await expect(asking).toHaveCount(0);
  }
  await expect(child).toHaveAttribute('data-state', 'done');
  await expect(spawn).toHaveAttribute('data-status', 'done');
  await expect(panel.locator('[data-testid="ai-message"][data-role="assistant"]').last()).toContainText('The tree is done.');

  // One trace: the child's root under the app's spawn step, the grandchild's under the child's spawn step.
  const spawnSpanId = await spawn.getByTestId('trace-id').first().getAttribute('data-span-id');
  type Span = { trace_id: string; span_id: string; parent_span: string | null; name: string; pid: number };
  const read = (): Span[] =>
    readFileSync(join(server.home, '.local/state/tandem/traces.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Span);
  await expect.poll(() => read().filter((span) => span.name === 'invoke_agent').length, { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
  const spans = read();
  const childRoot = spans.find((span) => span.name === 'invoke_agent' && span.parent_span === spawnSpanId);
  expect(childRoot).toBeDefined();
  const childSpawn = spans.find((span) => span.pid === childRoot!.pid && span.name === 'execute_tool spawn_agent')!;
  const grandchildRoot = spans.find((span) => span.name === 'invoke_agent' && span.parent_span === childSpawn.span_id);
  expect(grandchildRoot).toBeDefined();
  expect(new Set([childRoot!.trace_id, grandchildRoot!.trace_id, childSpawn.trace_id]).size).toBe(1);
  expect(new Set([childRoot!.pid, grandchildRoot!.pid]).size).toBe(2);
});

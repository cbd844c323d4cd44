import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { latest, planIdOf, waitForStep } from '../support/agentConversation';
import { useAgentEngine } from '../support/agentEngine';
import type { EngineClient } from '../support/engineClient';

const open = useAgentEngine();

function lastPlan(client: EngineClient) {
  const plan = latest(client)?.items.filter((item) => item.role === 'plan').at(-1);
  return plan?.role === 'plan' ? plan.plan : undefined;
}

describe('a plan step that opens a pager, with a real bash', () => {
  it('says it waits in a pager, and cancel ends it for real: step, plan and agent status agree, and the pane is back at its prompt', async () => {
    const { client, model, paneId, home } = await open();
    writeFileSync(join(home, 'long.txt'), Array.from({ length: 500 }, (_, n) => `line ${n + 1}`).join('\n'));
    model.script({ parts: [{ toolUse: { id: 'toolu_less', name: 'run_command', input: { command: 'less long.txt', purpose: 'read it' } } }] });
    await client.request('agent.send', { text: 'show me long.txt', attachments: [], paneId });
    const proposed = await waitForStep(client, (s) => s.status === 'proposed', 'the proposed step');
    await client.request('agent.step', { planId: planIdOf(client), stepId: proposed.id, action: 'approve' });
    await waitForStep(client, (s) => s.status === 'running' && (s.detail ?? '').startsWith('waiting in a pager (less)'), 'the pager to be noticed');
    expect(latest(client)?.status).toBe('running-step');

    // Esc twice: everything stops.
    await client.request('agent.cancel', { everything: true });
    const block = await client.waitForBlock(paneId, 'less long.txt');
    expect(block.exitCode).toBeDefined();
    const ended = await waitForStep(client, (s) => s.id === proposed.id && s.status !== 'running', 'the step to end');
    expect(ended).toMatchObject({ status: 'failed', detail: 'cancelled' });
    await client.waitFor(() => latest(client)?.status === 'idle', 10_000, 'the agent to be idle');
    expect(lastPlan(client)?.state).toBe('cancelled');
    await client.waitFor(() => client.eventsOf('pane.state').filter((s) => s.paneId === paneId).at(-1)?.state === 'PROMPT', 10_000, 'the prompt');

    // The pane is the shell's again: a command typed now runs.
    client.type(paneId, 'echo back-at-prompt\r');
    expect((await client.waitForBlock(paneId, 'echo back-at-prompt')).exitCode).toBe(0);
  });
});

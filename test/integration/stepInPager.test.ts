import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { latest, planIdOf, toolResults, waitForStep } from '../support/agentConversation';
import { useAgentEngine } from '../support/agentEngine';
import { repositoryWithCommits } from '../support/gitRepository';
import type { EngineClient } from '../support/engineClient';

const open = useAgentEngine();

function lastPlan(client: EngineClient) {
  const plan = latest(client)?.items.filter((item) => item.role === 'plan').at(-1);
  return plan?.role === 'plan' ? plan.plan : undefined;
}


async function proposeAndApprove(client: EngineClient, paneId: number, command: string) {
  await client.request('agent.send', { text: `run ${command}`, attachments: [], paneId });
  const proposed = await waitForStep(client, (s) => s.status === 'proposed', 'the proposed step');
  await client.request('agent.step', { planId: planIdOf(client), stepId: proposed.id, action: 'approve' });
  return proposed;
}

describe.each([
  { name: 'bash', path: '/bin/bash' },
  { name: 'zsh', path: '/usr/bin/zsh' },
  { name: 'fish', path: '/usr/bin/fish' },
])('plan steps in $name run without a pager', (shell) => {
  it('`git log` in a repository with 80 commits prints everything and ends; the user\'s own environment is untouched', async () => {
    const { client, model, paneId, home } = await open({ shell: shell.path });
    repositoryWithCommits(join(home, 'repo'), 80);
    client.type(paneId, 'cd repo\r');
    await client.waitForBlock(paneId, 'cd repo');
    model.script(
      { parts: [{ toolUse: { id: 'toolu_log', name: 'run_command', input: { command: 'git log --oneline && echo "in-step=[$GIT_PAGER]"', purpose: 'history' } } }] },
      { parts: [{ text: 'Read it.' }] },
    );
    await proposeAndApprove(client, paneId, 'git log');
    const [result] = toolResults(await model.waitForRequest(2, 20_000));
    expect(result?.content).toContain('Exit code: 0');
    expect(result?.content).toContain('commit number 1\n');
    expect(result?.content).toContain('in-step=[cat]');
    // The typed command line is the step's own, as the user sees it in the pane and history.
    expect(client.eventsOf('block.started').at(-1)?.command).toBe('git log --oneline && echo "in-step=[$GIT_PAGER]"');
    client.type(paneId, 'echo "after=[$PAGER][$GIT_PAGER]"\r');
    const after = await client.waitForBlock(paneId, 'echo "after=[$PAGER][$GIT_PAGER]"');
    expect((await client.request('block.output', { blockId: after.id })).text).toBe('after=[][]');
  });
});

describe('a plan step that opens a pager, with a real bash', () => {
  it('with `steps_use_pager` on, `git log` (LESS=FRX, no alternate screen) waits in the pager; Esc quits it and the step ends', async () => {
    const { client, model, paneId, home } = await open({ configToml: '[ai]\nsteps_use_pager = true\n' });
    repositoryWithCommits(join(home, 'repo'), 80);
    client.type(paneId, 'cd repo\r');
    await client.waitForBlock(paneId, 'cd repo');
    model.script({ parts: [{ toolUse: { id: 'toolu_log', name: 'run_command', input: { command: 'git log', purpose: 'history' } } }] }, { parts: [{ text: 'Stopped.' }] });
    const step = await proposeAndApprove(client, paneId, 'git log');
    await waitForStep(client, (s) => s.status === 'running' && (s.detail ?? '').startsWith('waiting in a pager'), 'the pager to be noticed');
    // Esc once: the step alone is ended (the pager gets `q`).
    expect((await client.request('agent.cancel', { everything: false })).cancelled).toBe('step');
    await client.waitForBlock(paneId, 'git log');
    expect(await waitForStep(client, (s) => s.id === step.id && s.status !== 'running', 'the step to end')).toMatchObject({ status: 'failed', detail: 'interrupted' });
    const [result] = toolResults(await model.waitForRequest(2));
    expect(result?.content).toContain('interrupted');
    await client.waitFor(() => latest(client)?.status === 'idle', 10_000, 'the agent to be idle');
  });

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

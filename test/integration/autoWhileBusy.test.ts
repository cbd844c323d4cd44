import { describe, expect, it } from 'vitest';
import { latest, planIdOf, requestText, waitForIdleWithAnswer } from '../support/agentConversation';
import { useAgentEngine } from '../support/agentEngine';

// `!auto <task>` typed at a real shell's prompt while the agent is busy (a plan waits): the
// task is not lost — the line goes back to the prompt, a notice says why and ends with its
// cause, and Enter then starts the run. Real shells in a real pty, the real SDK against the
// scripted model server.

const open = useAgentEngine();

const SHELLS = [
  { name: 'bash', path: '/bin/bash' },
  { name: 'zsh', path: '/usr/bin/zsh' },
  { name: 'fish', path: '/usr/bin/fish' },
] as const;

describe.each(SHELLS)('`!auto` while a plan waits, at a $name prompt', (shell) => {
  it('goes back to the prompt with a notice; Enter starts it once the agent is free', async () => {
    const { client, model, paneId } = await open({ shell: shell.path });
    model.script(
      { parts: [{ toolUse: { id: 'w1', name: 'run_command', input: { command: 'touch waiting.txt', purpose: 'wait' } } }] },
      { parts: [{ text: 'Left it.' }] },
      { parts: [{ text: 'Nothing to do.' }] },
    );
    await client.request('agent.send', { text: 'make a file', attachments: [], paneId });
    await client.waitFor(() => latest(client)?.status === 'awaiting-approval', 15_000, 'the plan waiting');

    await client.typeKeyByKey(paneId, '!auto second task\r');
    const notice = await client.waitFor(
      () => client.eventsOf('pane.notice').find((event) => event.paneId === paneId && event.message.includes('back at the prompt')),
      10_000,
      'the notice',
    );
    expect(notice).toMatchObject({ level: 'warning', ends: expect.arrayContaining(['agent-idle', 'run-start']) });
    expect(latest(client)?.auto).toBeUndefined();

    await client.request('agent.plan', { planId: planIdOf(client), action: 'deny-plan' });
    await waitForIdleWithAnswer(client, 'Left it.');
    client.type(paneId, '\r');
    expect(requestText(await model.waitForRequest(3))).toContain('second task');
    // The line went to the agent, never to the shell.
    expect(client.eventsOf('block.started').map((block) => block.command)).not.toContain('!auto second task');
  });
});

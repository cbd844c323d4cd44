import { describe, expect, it } from 'vitest';
import { waitForIdleWithAnswer } from '../support/agentConversation';
import { useAgentEngine } from '../support/agentEngine';

/** The block index the model sees, built from real shells' blocks. */

const open = useAgentEngine();
/** A quiet machine's time limit; the waiters scale it for this one. */
const TIMEOUT = 15_000;

describe.each([
  { name: 'bash', path: '/bin/bash' },
  { name: 'zsh', path: '/usr/bin/zsh' },
  { name: 'fish', path: '/usr/bin/fish' },
])('$name: the block index', (shell) => {
  it('a command that printed nothing says "no output"; one line says "1 line"', async () => {
    const { client, model, paneId } = await open({ shell: shell.path });
    for (const command of ['true', 'printf x', 'printf "a\\nb\\n"']) {
      client.type(paneId, `${command}\r`);
      await client.waitForBlock(paneId, command, TIMEOUT);
    }
    model.script({ parts: [{ text: 'Seen.' }] });
    await client.request('agent.send', { text: 'what ran?', attachments: [], paneId });
    await waitForIdleWithAnswer(client, 'Seen.');
    const rows = String((await model.waitForRequest(1, TIMEOUT)).body?.system).split('\n');
    expect(rows.find((row) => row.endsWith('| true'))).toMatch(/\| no output \| true$/);
    expect(rows.find((row) => row.endsWith('| printf x'))).toMatch(/\| 1 line \| printf x$/);
    expect(rows.find((row) => row.endsWith('| printf "a\\nb\\n"'))).toMatch(/\| 2 lines \|/);
  });
});

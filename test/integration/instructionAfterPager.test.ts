import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requestText } from '../support/agentConversation';
import { useAgentEngine } from '../support/agentEngine';
import { repositoryWithCommits } from '../support/gitRepository';
import type { EngineClient } from '../support/engineClient';

const open = useAgentEngine();

const SHELLS = [
  { name: 'bash', path: '/bin/bash', historyCommand: 'history' },
  { name: 'zsh', path: '/usr/bin/zsh', historyCommand: 'fc -ln 1' },
  { name: 'fish', path: '/usr/bin/fish', historyCommand: 'history' },
] as const;


/**
 * Runs `command` (which opens a pager), waits until the pager shows `shown`, quits it with
 * `q` and waits for the next prompt.
 */
async function throughPager(client: EngineClient, paneId: number, command: string, shown: string): Promise<void> {
  const from = client.textOf(paneId).length;
  await client.typeKeyByKey(paneId, `${command}\r`);
  await client.waitFor(() => client.textOf(paneId).slice(from).includes(shown), 10_000, `${command} to show its first page`);
  const shownAt = client.textOf(paneId).length;
  client.type(paneId, 'q');
  await client.waitForBlock(paneId, command);
  // The next prompt has been drawn (its input-start mark), as a person sees it before typing.
  await client.waitFor(() => client.textOf(paneId).slice(shownAt).includes('\x1b]133;B;'), 10_000, `the prompt after ${command}`);
}

async function historyOf(client: EngineClient, paneId: number, historyCommand: string): Promise<string> {
  client.type(paneId, `${historyCommand}\r`);
  const block = await client.waitForBlock(paneId, historyCommand);
  return (await client.request('block.output', { blockId: block.id })).text;
}

describe.each(SHELLS)('a `# ` instruction right after quitting a pager in $name', (shell) => {
  it('reaches the agent after `less` on a long file and after `git log` (LESS=FRX), and never the history', async () => {
    const { client, model, paneId, home } = await open({ shell: shell.path });
    model.script({ parts: [{ text: 'First.' }] }, { parts: [{ text: 'Second.' }] });
    writeFileSync(join(home, 'long.txt'), Array.from({ length: 500 }, (_, n) => `line ${n + 1}`).join('\n'));
    await throughPager(client, paneId, 'less long.txt', 'line 20');
    await client.typeKeyByKey(paneId, '# hello after less\r');
    expect(requestText(await model.waitForRequest(1))).toContain('hello after less');

    repositoryWithCommits(join(home, 'repo'), 80);
    await client.typeKeyByKey(paneId, 'cd repo\r');
    await client.waitForBlock(paneId, 'cd repo');
    await throughPager(client, paneId, 'git log', 'commit number 79');
    await client.typeKeyByKey(paneId, '# hello after git log\r');
    expect(requestText(await model.waitForRequest(2))).toContain('hello after git log');

    const history = await historyOf(client, paneId, shell.historyCommand);
    expect(history).toContain('git log');
    expect(history).not.toContain('hello after');
    expect(client.eventsOf('block.started').some((b) => b.command.includes('hello after'))).toBe(false);
  });

  it('holds Enter back, with a notice, when an edited line looks like an instruction; Ctrl+C and retyping sends it', async () => {
    const { client, model, paneId } = await open({ shell: shell.path });
    model.script({ parts: [{ text: 'Got it.' }] });
    // Left and Right: the line is the same, but Tandem cannot follow cursor edits.
    await client.typeKeyByKey(paneId, '# token abc123');
    client.type(paneId, '\x1b[D');
    client.type(paneId, '\x1b[C');
    client.type(paneId, '\r');
    const notice = await client.waitFor(() => client.eventsOf('pane.notice').find((n) => n.paneId === paneId), 10_000, 'the notice');
    expect(notice.level).toBe('warning');
    expect(notice.message).toContain('Enter was not sent to the shell');
    expect(notice.message).not.toContain('abc123');
    // As a user would: Ctrl+C, and again if the prompt does not come back. Under load fish now
    // and then takes no notice of a Ctrl+C right after cursor keys (about 1 run in 8 with both cores busy).
    const beforeCtrlC = client.textOf(paneId).length;
    const promptBack = () => client.textOf(paneId).slice(beforeCtrlC).includes('\x1b]133;B;');
    for (let press = 1; press <= 3 && !promptBack(); press++) {
      client.type(paneId, '\x03');
      await client.waitFor(promptBack, 5_000, 'the prompt after Ctrl+C').catch((error: unknown) => {
        if (press === 3) throw error;
      });
    }
    expect(promptBack()).toBe(true);
    await client.typeKeyByKey(paneId, '# token again\r');
    expect(requestText(await model.waitForRequest(1))).toContain('token again');
    expect(model.requests).toHaveLength(1);
    const history = await historyOf(client, paneId, shell.historyCommand);
    expect(history).not.toContain('abc123');
    expect(client.eventsOf('block.started').some((b) => b.command.includes('abc123'))).toBe(false);
  });
});

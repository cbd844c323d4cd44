import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitForIdleWithAnswer } from '../support/agentConversation';
import { useAgentEngine } from '../support/agentEngine';
import { repositoryWithLongHistory } from '../support/gitRepository';

/**
 * `git log` quit with `q` in its pager ends with 141 (git's SIGPIPE): the block keeps that
 * exit code, but it is a quit, not a failure — in the block, in the model's block index.
 * Real bash, git and less (git's default pager with LESS=FRX: no alternate screen).
 */

const open = useAgentEngine();
/** A quiet machine's time limit; the waiters scale it for this one. */
const TIMEOUT = 20_000;

describe('bash + git + less: quitting the pager', () => {
  it('`git log` quit with q is exit 141 and a pager quit; real failures and a 141 without a pager stay failures', async () => {
    const { client, model, paneId, home } = await open();
    repositoryWithLongHistory(join(home, 'repo'), 1_500);
    client.type(paneId, 'cd repo\r');
    await client.waitForBlock(paneId, 'cd repo', TIMEOUT);

    const before = client.textOf(paneId).length;
    client.type(paneId, 'git log\r');
    // less shows the newest commits and waits for a key.
    await client.waitFor(() => client.textOf(paneId).slice(before).includes('commit number 1500'), TIMEOUT, 'the pager showing the log');
    client.type(paneId, 'q');
    const quit = await client.waitForBlock(paneId, 'git log', TIMEOUT);
    expect(quit.exitCode).toBe(141);
    expect(quit.pagerQuit).toBe(true);

    // A failure that has nothing to do with a pager (git prints its error, no pager runs).
    const run = (command: string) => {
      client.type(paneId, `${command}\r`);
      return client.waitForBlock(paneId, command, TIMEOUT);
    };
    const failed = await run('git log no-such-ref');
    expect(failed.exitCode).toBe(128);
    expect(failed.pagerQuit).toBeUndefined();
    // 141 with nobody typing into a pager: a failure as before.
    const pipe = await run("bash -o pipefail -c 'yes | head -1'");
    expect(pipe.exitCode).toBe(141);
    expect(pipe.pagerQuit).toBeUndefined();

    model.script({ parts: [{ text: 'Seen.' }] });
    await client.request('agent.send', { text: 'what happened?', attachments: [], paneId });
    await waitForIdleWithAnswer(client, 'Seen.');
    const index = String((await model.waitForRequest(1, TIMEOUT)).body?.system).split('\n');
    const row = (command: string) => index.find((line) => line.endsWith(`| ${command}`));
    expect(row('git log')).toMatch(/\| pager quit by the user \(exit 141\) \|/);
    expect(row('git log')).not.toContain('errors');
    expect(row('git log no-such-ref')).toMatch(/\| exit 128, errors \|/);
    expect(row("bash -o pipefail -c 'yes | head -1'")).toMatch(/\| exit 141, errors \|/);
  });
});

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CompanionHint } from '../../src/shared/companion';
import { planIdOf, waitForIdleWithAnswer, waitForStep } from '../support/agentConversation';
import { useEngineClient, type EngineClient } from '../support/engineClient';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/modelServer';

const engines = useEngineClient();
let model: ScriptedModelServer | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

const SHELLS = [
  { name: 'bash', path: '/bin/bash' },
  { name: 'zsh', path: '/usr/bin/zsh' },
] as const;

/** An engine whose agent points at a scripted model server, so a request leaving the machine would be seen. */
async function open(shell: string, companion: string) {
  model = await startScriptedModelServer();
  const { engine, client } = await engines.open({
    shell,
    env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-ant-test', TANDEM_MODEL: 'claude-sonnet-5-5' },
    configToml: `[companion]\n${companion}\n`,
  });
  writeFileSync(join(engine.home, '.zshrc'), 'PROMPT="%n%# "\n');
  const { paneId } = await client.request('pane.create', { cols: 100, rows: 30 });
  await client.waitForPrompt(paneId);
  return { client, paneId, model };
}

function hintEvents(client: EngineClient, paneId: number): (CompanionHint | null)[] {
  return client
    .eventsOf('companion.hint')
    .filter((event) => event.paneId === paneId)
    .map((event) => event.hint);
}

/** Runs a command and waits for its block and the next prompt; hints for it are sent no later than its block. */
async function run(client: EngineClient, paneId: number, command: string) {
  const finished = () => client.eventsOf('block.finished').filter((b) => b.paneId === paneId);
  const before = finished().length;
  const prompts = client.eventsOf('pane.state').filter((s) => s.paneId === paneId && s.state === 'PROMPT').length;
  client.type(paneId, `${command}\r`);
  const block = await client.waitFor(() => finished().slice(before).find((b) => b.command === command), 15_000, `block "${command}"`);
  await client.waitForPrompt(paneId, prompts + 1);
  return block;
}

function waitForHint(client: EngineClient, paneId: number, count: number, what: string): Promise<(CompanionHint | null)[]> {
  return client.waitFor(() => (hintEvents(client, paneId).length >= count ? hintEvents(client, paneId) : undefined), 15_000, what);
}

describe.each(SHELLS)('Watch mode hints with a real $name', (shell) => {
  it('an error cascade counts real failures only: Ctrl+C (130) and grep -q do not; a success ends it; nothing reaches the model', async () => {
    const { client, paneId, model } = await open(shell.path, 'error_cascade = 3\nretry_loop = 2\nlong_pause_seconds = 0');
    expect((await run(client, paneId, 'false')).exitCode).toBe(1);
    expect((await run(client, paneId, 'ls /no-such-dir')).exitCode).not.toBe(0);

    const prompts = client.eventsOf('pane.state').filter((s) => s.paneId === paneId && s.state === 'PROMPT').length;
    // The program says when it runs (the typed line shows `sleep""ing`, its output `sleeping`): Ctrl+C then reaches it, not the shell.
    const sleeper = `sh -c 'echo sleep""ing-now; exec sleep 30'`;
    const from = client.textOf(paneId).length;
    client.type(paneId, `${sleeper}\r`);
    await client.waitFor(() => client.textOf(paneId).slice(from).includes('sleeping-now'), 10_000, 'sleep to run');
    client.type(paneId, '\x03');
    const interrupted = await client.waitForBlock(paneId, sleeper);
    expect(interrupted.exitCode).toBe(130);
    await client.waitForPrompt(paneId, prompts + 1);

    expect((await run(client, paneId, 'grep -q no-such-text /etc/passwd')).exitCode).toBe(1);
    // Read as the shell reads it: a list whose only possible failure is grep's "no".
    expect((await run(client, paneId, `grep -q 'no such; text' /etc/passwd && echo found`)).exitCode).toBe(1);
    expect((await run(client, paneId, 'if [ -d /no-such-dir ]; then echo there; else test -f /no-such-file; fi')).exitCode).toBe(1);
    // Two counted failures so far: no hint (one for any block above was sent before its block).
    expect(hintEvents(client, paneId)).toEqual([]);

    const third = await run(client, paneId, 'cat /no-such-file');
    const [hint] = await waitForHint(client, paneId, 1, 'the error-cascade hint');
    expect(hint).toEqual({ paneId, pattern: 'error-cascade', blockId: third.id, text: 'Stuck? `??` for help' });

    // One hint per episode: a fourth failure adds none; a success takes it away.
    await run(client, paneId, 'ls /no-such-dir-either');
    expect(hintEvents(client, paneId)).toHaveLength(1);
    await run(client, paneId, 'true');
    expect(await waitForHint(client, paneId, 2, 'the hint to end')).toEqual([hint, null]);

    expect(model.requests).toHaveLength(0);
    expect(model.modelListRequests).toBe(0);
  });

  it('a retry loop: the same command (whitespace aside) failing twice; after a success it starts over', async () => {
    const { client, paneId, model } = await open(shell.path, 'long_pause_seconds = 0');
    await run(client, paneId, 'ls /no-such-dir');
    expect(hintEvents(client, paneId)).toEqual([]);
    const second = await run(client, paneId, 'ls  /no-such-dir');
    const [hint] = await waitForHint(client, paneId, 1, 'the retry-loop hint');
    expect(hint).toMatchObject({ pattern: 'retry-loop', blockId: second.id, text: "Try `?? why isn't this working`" });

    await run(client, paneId, 'echo fixed');
    await waitForHint(client, paneId, 2, 'the hint to end');
    await run(client, paneId, 'ls /no-such-dir');
    expect(hintEvents(client, paneId)).toHaveLength(2);
    // `test` failing in between is a question answered "no", not a retry.
    await run(client, paneId, 'test -e /no-such-file');
    expect(hintEvents(client, paneId)).toHaveLength(2);
    await run(client, paneId, 'ls /no-such-dir');
    expect((await waitForHint(client, paneId, 3, 'a new episode’s hint')).at(-1)).toMatchObject({ pattern: 'retry-loop' });
    expect(model.requests).toHaveLength(0);
  });

  it('a long pause after a failure in the focused pane', async () => {
    const { client, paneId, model } = await open(shell.path, 'long_pause_seconds = 1');
    await client.request('pane.focus', { paneId });
    const failed = await run(client, paneId, 'cat /no-such-file');
    const [hint] = await waitForHint(client, paneId, 1, 'the long-pause hint');
    expect(hint).toMatchObject({ pattern: 'long-pause', blockId: failed.id, text: 'Need help with that error?' });
    await run(client, paneId, 'true');
    await waitForHint(client, paneId, 2, 'the hint to end');
    expect(model.requests).toHaveLength(0);
  });

  it('hints = false: no hint at all', async () => {
    const { client, paneId } = await open(shell.path, 'hints = false\nlong_pause_seconds = 1');
    await client.request('pane.focus', { paneId });
    for (let i = 0; i < 3; i++) await run(client, paneId, 'ls /no-such-dir');
    expect(hintEvents(client, paneId)).toEqual([]);
  });
});

describe('Watch mode and the agent', () => {
  it("a plan step's failure is not the user being stuck: the same command failing for the agent and then the user is no retry loop", async () => {
    const { client, paneId, model } = await open('/bin/bash', 'long_pause_seconds = 0');
    model.script(
      { parts: [{ toolUse: { id: 'toolu_ls', name: 'run_command', input: { command: 'ls /no-such-dir', purpose: 'look' } } }] },
      { parts: [{ text: 'It is not there.' }] },
    );
    await client.request('agent.send', { text: 'look in /no-such-dir', attachments: [], paneId });
    const step = await waitForStep(client, (s) => s.status === 'proposed', 'the proposed step');
    await client.request('agent.step', { planId: planIdOf(client), stepId: step.id, action: 'approve' });
    const agentBlock = await client.waitForBlock(paneId, 'ls /no-such-dir');
    expect(agentBlock.exitCode).not.toBe(0);
    await waitForIdleWithAnswer(client, 'It is not there.');

    await run(client, paneId, 'ls /no-such-dir');
    expect(hintEvents(client, paneId)).toEqual([]);
    await run(client, paneId, 'ls /no-such-dir');
    expect((await waitForHint(client, paneId, 1, 'the retry-loop hint'))[0]).toMatchObject({ pattern: 'retry-loop' });
  });
});

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationItem } from '../../src/shared/agent';
import { latest, waitForIdleWithAnswer } from '../support/agentConversation';
import { useAgentCli } from '../support/agentCli';
import { useAgentEngine } from '../support/agentEngine';
import { deadPort } from '../support/deadPort';
import { forwardPort } from '../support/portForwarder';

// §14.8 with the engine, a real bash and the real SDKs: the configured backend and its
// [[ai.fallback]] refuse connections; later one answers (a loopback forwarder to the scripted
// server starts on the fallback's port).

const open = useAgentEngine();
const { setup, start } = useAgentCli();
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function comeAlive(port: number, target: string): Promise<void> {
  cleanups.push(await forwardPort(port, target));
}

async function deadBackends() {
  const fallbackPort = await deadPort();
  const configToml = `[[ai.fallback]]\nbackend = "openai-compatible"\nbase_url = "http://127.0.0.1:${fallbackPort}/v1"\nmodel = "llama3"\n`;
  return { fallbackPort, configToml, baseUrl: `http://127.0.0.1:${await deadPort()}` };
}

const errorCard = (items: readonly ConversationItem[] = []) => [...items].reverse().find((item): item is Extract<ConversationItem, { role: 'error' }> => item.role === 'error');

describe('no backend answers (§14.8)', () => {
  it('the panel says so and offers to queue; the queued instruction is kept and sent by a later check once a backend answers', async () => {
    const dead = await deadBackends();
    const { client, model, paneId, home } = await open({ baseUrl: dead.baseUrl, configToml: dead.configToml });
    await client.request('agent.send', { text: 'deploy the fix', attachments: [], paneId });
    const card = await client.waitFor(() => errorCard(latest(client)?.items), 30_000, 'the no-backend card');
    expect(card.text).toMatch(/^No backend answered: anthropic claude-sonnet-5-5 at http:\/\/127\.0\.0\.1:\d+, then openai-compatible llama3 at/);
    expect(card.offerQueue).toBe(true);
    expect(model.requests).toHaveLength(0);

    await client.request('agent.offline', { action: 'queue' });
    const queued = await client.waitFor(() => (latest(client)?.offline ? latest(client) : undefined), 10_000, 'the queue bar');
    expect(queued.offline?.instructions.map((instruction) => instruction.text)).toEqual(['deploy the fix']);
    expect(errorCard(queued.items)?.offerQueue).toBe(false);
    const file = join(home, '.local/state/tandem/queued.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ instructions: [{ text: 'deploy the fix' }] });

    // The timer checks (still nothing: the bar counts it and waits longer), then a backend answers.
    await client.waitFor(() => ((latest(client)?.offline?.checks ?? 0) >= 1 ? true : undefined), 30_000, 'a check that found no backend');
    expect(latest(client)!.items.filter((item) => item.role === 'error')).toHaveLength(1);
    model.script({ parts: [{ text: 'Deployed.' }] });
    await comeAlive(dead.fallbackPort, model.url);
    const view = await waitForIdleWithAnswer(client, 'Deployed.');
    expect(view.offline).toBeUndefined();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ instructions: [] });
    const request = await model.waitForRequest(1);
    expect(request.path).toBe('/v1/chat/completions');
    expect(JSON.stringify(request.body)).toContain('deploy the fix');
  }, 90_000);

  it('a message sent while queued joins the queue and is a check; Retry now sends both once a backend answers', async () => {
    const dead = await deadBackends();
    const { client, model, paneId } = await open({ baseUrl: dead.baseUrl, configToml: dead.configToml });
    await client.request('agent.send', { text: 'first task', attachments: [], paneId });
    await client.waitFor(() => errorCard(latest(client)?.items)?.offerQueue || undefined, 30_000, 'the queue offer');
    await client.request('agent.offline', { action: 'queue' });
    await client.request('agent.send', { text: 'second task', attachments: [], paneId });
    await client.waitFor(() => (latest(client)?.status === 'idle' && latest(client)?.offline?.instructions.length === 2 ? true : undefined), 30_000, 'both queued');
    model.script({ parts: [{ text: 'Both done.' }] });
    await comeAlive(dead.fallbackPort, model.url);
    await client.request('agent.offline', { action: 'retry' });
    const view = await waitForIdleWithAnswer(client, 'Both done.');
    expect(view.offline).toBeUndefined();
    const body = JSON.stringify((await model.waitForRequest(1)).body);
    expect(body).toContain('first task');
    expect(body).toContain('second task');
  }, 90_000);

  it('a queue left by a previous run comes back into the panel and is sent when a backend answers', async () => {
    const state = mkdtempSync(join(tmpdir(), 'tandem-queue-'));
    cleanups.push(() => rmSync(state, { recursive: true, force: true }));
    mkdirSync(join(state, 'tandem'), { recursive: true });
    writeFileSync(join(state, 'tandem', 'queued.json'), JSON.stringify({ version: 1, instructions: [{ text: 'left from yesterday', at: Date.now() - 86_400_000 }] }));
    const { client, model } = await open({ env: { XDG_STATE_HOME: state } });
    model.script({ parts: [{ text: 'Picked up.' }] });
    const first = await client.request('agent.state', {});
    expect(first.items.find((item) => item.role === 'user')).toMatchObject({ text: 'left from yesterday' });
    expect(first.offline?.instructions).toHaveLength(1);
    const view = await waitForIdleWithAnswer(client, 'Picked up.');
    expect(view.offline).toBeUndefined();
    expect(JSON.stringify((await model.waitForRequest(1)).body)).toContain('left from yesterday');
  }, 60_000);

  it('headless: the event stream says no backend answered, the run exits 4 and queues nothing', async () => {
    const { env } = await setup();
    const dead = await deadBackends();
    mkdirSync(join(env.XDG_CONFIG_HOME!, 'tandem'), { recursive: true });
    writeFileSync(join(env.XDG_CONFIG_HOME!, 'tandem', 'config.toml'), dead.configToml);
    const agent = start(['--json', '-c', '# hello'], env, { stdin: 'inherit-closed', env: { ANTHROPIC_BASE_URL: dead.baseUrl } });
    expect(await agent.exitCode(90_000)).toBe(4);
    expect(agent.events.find((event) => event.type === 'error')?.message).toMatch(/^No backend answered: anthropic claude-sonnet-5-5 at .*, then openai-compatible llama3 at /);
    expect(agent.events.at(-1)).toMatchObject({ type: 'result', subtype: 'error_model', exit_code: 4 });
    expect(existsSync(join(env.XDG_STATE_HOME!, 'tandem', 'queued.json'))).toBe(false);
  }, 120_000);
});

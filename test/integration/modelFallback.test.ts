import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationItem } from '../../src/shared/agent';
import { latest, requestText, waitForIdleWithAnswer } from '../support/agentConversation';
import { useAgentEngine } from '../support/agentEngine';
import { deadPort } from '../support/deadPort';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/modelServer';

const open = useAgentEngine();
let local: ScriptedModelServer | undefined;
afterEach(async () => {
  await local?.close();
  local = undefined;
});

/** A second scripted server as the one `[[ai.fallback]]`: an OpenAI-compatible endpoint on loopback (no key). */
async function withLocalFallback(): Promise<{ server: ScriptedModelServer; configToml: string }> {
  local = await startScriptedModelServer();
  return { server: local, configToml: `[[ai.fallback]]\nbackend = "openai-compatible"\nbase_url = "${local.url}/v1"\nmodel = "llama3"\n` };
}

function fallbackItems(items: readonly ConversationItem[] = []) {
  return items.flatMap((item) => (item.role === 'fallback' ? [item] : []));
}

describe('[[ai.fallback]]: the real SDKs against two scripted model servers', () => {
  it('a refused connection hands the request to the fallback; the panel says so, and the next turn stays there with the history', async () => {
    const fallback = await withLocalFallback();
    const { client, paneId } = await open({ baseUrl: `http://127.0.0.1:${await deadPort()}`, configToml: fallback.configToml });
    fallback.server.script({ parts: [{ text: 'Answered by the local model.' }] }, { parts: [{ text: 'Still the local model.' }] });

    await client.request('agent.send', { text: 'first question', attachments: [], paneId });
    const view = await waitForIdleWithAnswer(client, 'Answered by the local model');
    const [card] = fallbackItems(view.items);
    expect(card).toMatchObject({ from: { backend: 'anthropic', model: 'claude-sonnet-5-5' }, to: { backend: 'openai-compatible', model: 'llama3' } });
    expect(card?.reason).toMatch(/Cannot reach .*ECONNREFUSED/);
    expect(view).toMatchObject({ backend: 'openai-compatible', model: 'llama3' });
    expect(view.items.some((item) => item.role === 'error')).toBe(false);
    // The card comes before the answer, which streams like any other.
    const switched = client.eventsOf('agent.conversation').find((seen) => fallbackItems(seen.items).length > 0);
    expect(switched?.items.slice(-2).map((item) => (item.role === 'assistant' ? `assistant streaming=${item.streaming}` : item.role))).toEqual(['fallback', 'assistant streaming=true']);
    expect(view.items.slice(-2).map((item) => item.role)).toEqual(['fallback', 'assistant']);
    const first = await fallback.server.waitForRequest(1);
    expect(first.path).toBe('/v1/chat/completions');
    expect(first.body?.model).toBe('llama3');

    await client.request('agent.send', { text: 'second question', attachments: [], paneId });
    const after = await waitForIdleWithAnswer(client, 'Still the local model');
    const second = await fallback.server.waitForRequest(2);
    // The history of the first turn went along, in the OpenAI shape; no new switch was needed.
    expect(requestText(second)).toContain('first question');
    expect(requestText(second)).toContain('Answered by the local model');
    expect(requestText(second)).toContain('second question');
    expect(fallbackItems(after.items)).toHaveLength(1);
    expect(after.items.some((item) => item.role === 'retry')).toBe(false);
  }, 60_000);

  it('a 503 after all its retries falls back mid-conversation, the earlier turns going along', async () => {
    const fallback = await withLocalFallback();
    const { client, model, paneId } = await open({ configToml: fallback.configToml });
    model.script({ parts: [{ text: 'Primary here.' }] }, ...Array.from({ length: 5 }, () => ({ status: 503 })));
    fallback.server.script({ parts: [{ text: 'Fallback here.' }] }, { parts: [{ text: 'Fallback again.' }] });

    await client.request('agent.send', { text: 'turn one', attachments: [], paneId });
    await waitForIdleWithAnswer(client, 'Primary here');
    await client.request('agent.send', { text: 'turn two', attachments: [], paneId });
    const view = await waitForIdleWithAnswer(client, 'Fallback here');
    expect(model.requests).toHaveLength(6);
    expect(fallbackItems(view.items)[0]?.reason).toContain('(503)');
    const request = await fallback.server.waitForRequest(1);
    expect(requestText(request)).toContain('turn one');
    expect(requestText(request)).toContain('Primary here.');

    await client.request('agent.send', { text: 'turn three', attachments: [], paneId });
    await waitForIdleWithAnswer(client, 'Fallback again');
    expect(model.requests).toHaveLength(6);

    // A new conversation tries the configured backend first again.
    model.script({ parts: [{ text: 'Primary is back.' }] });
    await client.request('agent.new', {});
    await client.request('agent.send', { text: 'fresh', attachments: [], paneId });
    const fresh = await waitForIdleWithAnswer(client, 'Primary is back');
    expect(fresh).toMatchObject({ backend: 'anthropic', model: 'claude-sonnet-5-5' });
    expect(model.requests).toHaveLength(7);
  }, 60_000);

  it('a 401 from the configured backend does not fall back: the key is wrong, and another backend would not fix it', async () => {
    const fallback = await withLocalFallback();
    const { client, model, paneId } = await open({ configToml: fallback.configToml });
    model.script({ status: 401 });
    fallback.server.script({ parts: [{ text: 'Should not be asked.' }] });

    await client.request('agent.send', { text: 'hi', attachments: [], paneId });
    const error = await client.waitFor(() => latest(client)?.items.find((item) => item.role === 'error'), 15_000, 'the error');
    expect(error.role === 'error' && error.text).toContain('API key was refused (401)');
    await client.waitFor(() => latest(client)?.status === 'idle', 10_000, 'idle');
    expect(fallbackItems(latest(client)?.items)).toHaveLength(0);
    expect(fallback.server.requests).toHaveLength(0);
    expect(model.requests).toHaveLength(1);
  }, 60_000);
});

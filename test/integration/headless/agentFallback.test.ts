import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useAgentCli } from '../../support/agentCli';
import { invalidEvents } from '../../support/agentProtocol';
import { deadPort } from '../../support/deadPort';

// `tandem agent` with its configured backend down and a `[[ai.fallback]]` that answers: the
// built CLI, the real SDKs, the scripted server as the fallback (OpenAI-compatible, its key
// from the variable the table names).

const { setup, start } = useAgentCli();

describe('tandem agent with [[ai.fallback]]', () => {
  it('prints a fallback event when the configured backend refuses connections, and the fallback answers', async () => {
    const { model, home, env } = await setup();
    mkdirSync(join(home, '.config/tandem'), { recursive: true });
    writeFileSync(
      join(home, '.config/tandem/config.toml'),
      `[[ai.fallback]]\nbackend = "openai-compatible"\nbase_url = "${model.url}/v1"\nmodel = "llama3"\napi_key_env = "LOCAL_MODEL_KEY"\n`,
    );
    model.script({ parts: [{ text: 'The fallback answered.' }] });
    const agent = start(['-c', 'hello'], { ...env, ANTHROPIC_BASE_URL: `http://127.0.0.1:${await deadPort()}`, LOCAL_MODEL_KEY: 'sk-local-test' }, { stdin: 'inherit-closed' });

    expect(await agent.exitCode(90_000)).toBe(0);
    expect(invalidEvents(agent.events)).toEqual([]);
    const fallback = agent.events.find((event) => event.type === 'fallback');
    expect(fallback).toMatchObject({ from: { backend: 'anthropic', model: 'claude-sonnet-5-5' }, to: { backend: 'openai-compatible', model: 'llama3' } });
    expect(String(fallback?.reason)).toContain('ECONNREFUSED');
    // A refused connection is retried once, not four times, before the fallback takes over.
    expect(agent.events.filter((event) => event.type === 'retry').map((event) => event.attempts)).toEqual([2]);
    expect(agent.events.some((event) => event.type === 'error')).toBe(false);
    expect(agent.events.filter((event) => event.type === 'message').map((event) => event.text)).toEqual(['The fallback answered.']);
    expect(agent.events.at(-1)).toMatchObject({ type: 'result', subtype: 'success', result: 'The fallback answered.' });
    const request = await model.waitForRequest(1);
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe('Bearer sk-local-test');
  }, 120_000);
});

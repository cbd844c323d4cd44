import { describe, expect, it } from 'vitest';
import { MemoryKeyStore, ModelChoice } from '../../src/main/agent/modelConnection';
import { connectFallback, FallbackChain } from '../../src/main/agent/modelFallback';
import { DEFAULT_SETTINGS, type FallbackBackend, type Settings } from '../../src/shared/settings';

const local: FallbackBackend = { backend: 'openai-compatible', model: 'llama3', base_url: 'http://127.0.0.1:11434/v1', api_key_env: '' };
const remote: FallbackBackend = { backend: 'openai-compatible', model: 'qwen', base_url: 'https://vllm.example.test/v1', api_key_env: 'VLLM_KEY' };

function chain(fallback: FallbackBackend[], env: NodeJS.ProcessEnv = {}) {
  let now = 1_000_000;
  let ai: Settings['ai'] = { ...DEFAULT_SETTINGS.ai, fallback };
  const fallbacks = new FallbackChain(() => ai, env, 60_000, () => now);
  return {
    fallbacks,
    advance: (ms: number) => (now += ms),
    change: (patch: Partial<Settings['ai']>) => (ai = { ...ai, ...patch }),
  };
}

describe('connectFallback: where a fallback table sends requests, and with which key', () => {
  it('takes the key from the variable api_key_env names; unset, the table cannot be used and says why', () => {
    expect(connectFallback(remote, { VLLM_KEY: 'k' }).backend).toBeDefined();
    const unset = connectFallback(remote, {});
    expect(unset.backend).toBeUndefined();
    expect(unset).toMatchObject({ setupHint: 'VLLM_KEY is not set', endpoint: 'https://vllm.example.test/v1' });
  });

  it('a loopback endpoint needs no key; the usual variable goes only to the vendor endpoint, never to another host', () => {
    expect(connectFallback(local, {}).backend).toBeDefined();
    const elsewhere = { ...remote, api_key_env: '' };
    const withoutKey = connectFallback(elsewhere, { OPENAI_API_KEY: 'sk-openai' });
    expect(withoutKey.backend).toBeUndefined();
    expect(withoutKey.setupHint).toBe('its table names no api_key_env');
    expect(connectFallback({ backend: 'openai-compatible', model: 'gpt-5', base_url: '', api_key_env: '' }, { OPENAI_API_KEY: 'sk-openai' })).toMatchObject({
      endpoint: 'https://api.openai.com/v1',
      backend: expect.anything(),
    });
  });

  it('never shows credentials written into the URL', () => {
    expect(connectFallback({ ...local, base_url: 'http://user:secret@127.0.0.1:8000/v1' }, {}).endpoint).toBe('http://127.0.0.1:8000/v1');
  });
});

describe('FallbackChain: which backend a conversation is on', () => {
  it('moves down the list, passing over tables that cannot be used, and says which', () => {
    const { fallbacks } = chain([remote, local]);
    expect(fallbacks.current()).toBeUndefined();
    expect(fallbacks.hasNext()).toBe(true);
    const step = fallbacks.next();
    expect(step?.connection.model).toBe('llama3');
    expect(step?.skipped).toEqual(['openai-compatible qwen at https://vllm.example.test/v1 (VLLM_KEY is not set)']);
    expect(fallbacks.current()?.model).toBe('llama3');
    expect(fallbacks.hasNext()).toBe(false);
  });

  it('stays on the fallback for the hold, then the configured backend is tried first again', () => {
    const { fallbacks, advance } = chain([local]);
    fallbacks.next();
    advance(59_000);
    expect(fallbacks.current()?.model).toBe('llama3');
    advance(1_000);
    expect(fallbacks.current()).toBeUndefined();
    expect(fallbacks.hasNext()).toBe(true);
  });

  it('goes back to the configured backend when the settings change, when reset (new conversation, other model), or when none is left', () => {
    const settingsChange = chain([local]);
    settingsChange.fallbacks.next();
    settingsChange.change({ model: 'claude-opus-4-5' });
    expect(settingsChange.fallbacks.current()).toBeUndefined();

    const reset = chain([local]);
    reset.fallbacks.next();
    reset.fallbacks.reset();
    expect(reset.fallbacks.current()).toBeUndefined();

    const exhausted = chain([local]);
    exhausted.fallbacks.next();
    expect(exhausted.fallbacks.next()).toBeUndefined();
    expect(exhausted.fallbacks.current()).toBeUndefined();
  });

  it('with no fallback tables, or none whose key is there, there is nowhere to go', () => {
    for (const tables of [[], [remote]]) {
      const { fallbacks } = chain(tables);
      expect(fallbacks.hasNext()).toBe(false);
      expect(fallbacks.next()).toBeUndefined();
    }
  });
});

describe('ModelChoice on a fallback', () => {
  it('answers with the fallback, and does not ask it for [ai] small_model (a model of the configured backend)', () => {
    const ai = { ...DEFAULT_SETTINGS.ai, small_model: 'claude-haiku-4-5-custom', fallback: [local] };
    const models = new ModelChoice(() => ai, { ANTHROPIC_API_KEY: 'sk-ant-test' }, new MemoryKeyStore());
    expect(models.smallModel(ai.small_model)).toMatchObject({ ok: true, model: 'claude-haiku-4-5-custom' });
    models.fallbacks.next();
    expect(models.connection()).toMatchObject({ backendKind: 'openai-compatible', model: 'llama3' });
    expect(models.configured()).toMatchObject({ backendKind: 'anthropic', model: 'claude-sonnet-5-5' });
    expect(models.smallModel(ai.small_model)).toMatchObject({ ok: false });
    models.choose({ model: 'claude-opus-4-5' });
    expect(models.connection()).toMatchObject({ backendKind: 'anthropic', model: 'claude-opus-4-5' });
  });
});

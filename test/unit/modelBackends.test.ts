import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicBackend } from '../../src/main/agent/backends/anthropicBackend';
import type { ModelRequest } from '../../src/main/agent/backends/modelBackend';
import { ModelError } from '../../src/main/agent/backends/modelError';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/modelServer';

let server: ScriptedModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const request: ModelRequest = { model: 'claude-sonnet-5-5', system: 'be brief', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [], maxTokens: 100 };
const ignore = { text: () => undefined, toolUse: () => undefined };

async function failureOf(promise: Promise<unknown>): Promise<ModelError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof ModelError)) throw new Error(`expected a ModelError, got ${String(error)}`);
  return error;
}

describe('AnthropicBackend errors, through the real SDK', () => {
  it('gives up on a stream that goes silent, keeping it out of automatic retries once text arrived', async () => {
    // The idle limit also covers the wait for the first event: long enough that a loaded
    // machine still delivers the text before it, since the held stream never sends more.
    server = await startScriptedModelServer();
    server.script({ parts: [{ text: 'start of an answer' }], holdAfterEvents: 4 });
    const backend = new AnthropicBackend({ apiKey: 'k', baseURL: server.url, keySource: 'ANTHROPIC_API_KEY', idleTimeoutMs: 3_000 });
    const error = await failureOf(backend.stream(request, ignore, new AbortController().signal));
    expect(error.kind).toBe('timeout');
    expect(error.message).toMatch(/stopped sending for 3 s/);
    expect(error.options.partial).toBe(true);
    expect(error.retryable).toBe(false);
  });

  it('reports 403 and 404 with what to do', async () => {
    server = await startScriptedModelServer();
    server.script({ status: 403, message: 'not allowed' }, { status: 404, message: 'model: nope' });
    const backend = new AnthropicBackend({ apiKey: 'k', baseURL: server.url, keySource: 'ANTHROPIC_API_KEY' });
    const forbidden = await failureOf(backend.stream(request, ignore, new AbortController().signal));
    expect(forbidden.kind).toBe('permission');
    expect(forbidden.message).toContain('not allowed');
    const missing = await failureOf(backend.stream(request, ignore, new AbortController().signal));
    expect(missing.kind).toBe('model-not-found');
    expect(missing.message).toContain('Model "claude-sonnet-5-5" was not found');
  });

  it('turns an overloaded error event mid-stream into a retryable error when nothing was shown yet', async () => {
    server = await startScriptedModelServer();
    server.script({ parts: [], errorEvent: { type: 'overloaded_error', message: 'busy', afterEvents: 1 } });
    const backend = new AnthropicBackend({ apiKey: 'k', baseURL: server.url, keySource: 'ANTHROPIC_API_KEY' });
    const error = await failureOf(backend.stream(request, ignore, new AbortController().signal));
    expect(error.kind).toBe('overloaded');
    expect(error.retryable).toBe(true);
  });
});

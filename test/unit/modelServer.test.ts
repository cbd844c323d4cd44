import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/modelServer';

// The scripted model server is only useful if the real SDKs cannot tell it from the real API,
// so every test here drives it through @anthropic-ai/sdk or openai.

let server: ScriptedModelServer;

beforeEach(async () => {
  server = await startScriptedModelServer();
});

afterEach(async () => {
  await server.close();
});

const params = {
  model: 'claude-test',
  max_tokens: 1024,
  messages: [{ role: 'user' as const, content: 'List the files' }],
};

function anthropic(options: { maxRetries?: number } = {}) {
  return new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: options.maxRetries ?? 0, logLevel: 'off' });
}

function openai() {
  return new OpenAI({ apiKey: 'test', baseURL: `${server.url}/v1`, maxRetries: 0, logLevel: 'off' });
}

/** Collects the stream's text deltas; `arrived` resolves once `count` of them have come. */
function textDeltas(stream: ReturnType<Anthropic['messages']['stream']>, count = Infinity) {
  const deltas: string[] = [];
  const arrived = new Promise<string[]>((resolve) => {
    stream.on('text', (delta: string) => {
      deltas.push(delta);
      if (deltas.length === count) resolve([...deltas]);
    });
  });
  return { deltas, arrived };
}

describe('scripted model server, Anthropic Messages API', () => {
  it('streams text and a tool call that the SDK assembles into the final message', async () => {
    server.script({
      parts: [{ text: 'Here are **the files**:' }, { toolUse: { name: 'run_command', input: { command: 'ls -la', cwd: '/tmp' } } }],
      usage: { inputTokens: 42, outputTokens: 17 },
      delayMs: 2,
    });

    const message = await anthropic().messages.stream(params).finalMessage();

    expect(message.role).toBe('assistant');
    expect(message.model).toBe('claude-test');
    expect(message.stop_reason).toBe('tool_use');
    expect(message.usage).toMatchObject({ input_tokens: 42, output_tokens: 17 });
    expect(message.content).toHaveLength(2);
    expect(message.content[0]).toMatchObject({ type: 'text', text: 'Here are **the files**:' });
    expect(message.content[1]).toMatchObject({
      type: 'tool_use',
      id: expect.stringMatching(/^toolu_/),
      name: 'run_command',
      input: { command: 'ls -la', cwd: '/tmp' },
    });
  });

  it('records each request with its parsed body and headers', async () => {
    server.script('First', 'Second');
    const client = anthropic();
    await client.messages.stream(params).finalMessage();
    await client.messages.stream({ ...params, system: 'Be brief' }).finalMessage();

    expect(server.requests.map((request) => [request.index, request.method, request.path])).toEqual([
      [1, 'POST', '/v1/messages'],
      [2, 'POST', '/v1/messages'],
    ]);
    const second = await server.waitForRequest(2);
    // SDK 1.x sends the API key as a bearer token, not as x-api-key.
    expect(second.headers.authorization).toBe('Bearer test');
    expect(second.headers['anthropic-version']).toBeDefined();
    expect(second.body).toMatchObject({ model: 'claude-test', stream: true, system: 'Be brief', messages: params.messages });
    expect(second.closedByClient).toBe(false);
    expect(server.pendingReplies).toBe(0);
  });

  it('delivers text deltas as they are sent, before the stream ends', async () => {
    let release = () => {};
    // message_start, ping, content_block_start, then two of the three text deltas.
    server.script({ parts: [{ text: ['One ', 'two ', 'three'] }], holdAfterEvents: 5, releaseWhen: new Promise<void>((resolve) => (release = resolve)) });

    const stream = anthropic().messages.stream(params);
    const { arrived } = textDeltas(stream, 2);

    expect(await arrived).toEqual(['One ', 'two ']);
    expect(stream.ended).toBe(false);
    release();
    expect(await stream.finalText()).toBe('One two three');
  });

  it('answers non-streaming requests with the whole message', async () => {
    server.script([{ text: 'Done.' }, { toolUse: { id: 'toolu_fixed', name: 'read_file', input: { path: 'a.txt' } } }]);

    const message = await anthropic().messages.create(params);

    expect(message.content).toEqual([
      { type: 'text', text: 'Done.' },
      { type: 'tool_use', id: 'toolu_fixed', name: 'read_file', input: { path: 'a.txt' } },
    ]);
    expect(message.stop_reason).toBe('tool_use');
  });

  it('answers from a responder when nothing is queued', async () => {
    server.respond((request) => `You said: ${String(request.body?.messages?.at(-1)?.content)}`);

    expect(await anthropic().messages.stream(params).finalText()).toBe('You said: List the files');
  });

  it('reports a missing script as a 500 that names the request', async () => {
    const failure = anthropic().messages.stream(params).finalMessage();

    await expect(failure).rejects.toBeInstanceOf(Anthropic.InternalServerError);
    await expect(failure).rejects.toThrow('scripted model server: no reply scripted for request #1');
  });

  it('fails with the SDK error class for each HTTP error status', async () => {
    server.script({ status: 401, message: 'invalid x-api-key' }, { status: 403 }, { status: 404 }, { status: 500 }, { status: 529 });
    const client = anthropic();
    const failure = () => client.messages.stream(params).finalMessage();

    const authentication = await failure().catch((error: unknown) => error);
    expect(authentication).toBeInstanceOf(Anthropic.AuthenticationError);
    expect(authentication).toMatchObject({ status: 401, type: 'authentication_error', apiMessage: 'invalid x-api-key' });
    await expect(failure()).rejects.toBeInstanceOf(Anthropic.PermissionDeniedError);
    await expect(failure()).rejects.toBeInstanceOf(Anthropic.NotFoundError);
    await expect(failure()).rejects.toMatchObject({ status: 500, type: 'api_error' });
    await expect(failure()).rejects.toBeInstanceOf(Anthropic.OverloadedError);
    expect(server.requests).toHaveLength(5);
  });

  it('surfaces a 500 as InternalServerError when retries are off', async () => {
    server.script({ status: 500 }, 'never reached');

    await expect(anthropic({ maxRetries: 0 }).messages.stream(params).finalMessage()).rejects.toBeInstanceOf(Anthropic.InternalServerError);
    expect(server.requests).toHaveLength(1);
  });

  it('lets the SDK retry a 429 after retry-after and use the next reply', async () => {
    server.script({ status: 429, headers: { 'retry-after': '1' } }, 'Recovered');

    expect(await anthropic({ maxRetries: 2 }).messages.stream(params).finalText()).toBe('Recovered');
    expect(server.requests).toHaveLength(2);
  });

  it('rejects when the connection is cut mid-stream', async () => {
    server.script({ parts: [{ text: 'This answer never ends' }], cutAfterEvents: 4 });
    const stream = anthropic().messages.stream(params);
    const { deltas } = textDeltas(stream);

    // undici's "terminated", wrapped in an AnthropicError.
    const failure = stream.finalMessage();
    await expect(failure).rejects.toBeInstanceOf(Anthropic.AnthropicError);
    await expect(failure).rejects.toThrow('terminated');
    expect(deltas).toEqual(['This ']);
    await server.requests[0]?.closed;
    expect(server.requests[0]?.closedByClient).toBe(false);
  });

  it('rejects with the API error when an error event arrives mid-stream', async () => {
    server.script({ parts: [{ text: 'Partial answer' }], errorEvent: { type: 'overloaded_error', message: 'Overloaded' } });
    const stream = anthropic().messages.stream(params);
    const { deltas } = textDeltas(stream);

    const error = await stream.finalMessage().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect(error).toMatchObject({ type: 'overloaded_error', apiMessage: 'Overloaded' });
    expect(deltas).toEqual(['Partial ', 'answer']);
  });

  it('rejects when a data line is not valid JSON', async () => {
    server.script({ parts: [{ text: 'Fine so far' }], malformed: true });

    await expect(anthropic().messages.stream(params).finalMessage()).rejects.toThrow(/JSON/);
  });

  it('sees the client close the connection when the request is aborted', async () => {
    server.script({ parts: [{ text: 'A long answer' }], holdAfterEvents: 4 });
    const controller = new AbortController();
    const stream = anthropic().messages.stream(params, { signal: controller.signal });
    const { arrived } = textDeltas(stream, 1);

    await arrived;
    controller.abort();

    await expect(stream.finalMessage()).rejects.toBeInstanceOf(Anthropic.APIUserAbortError);
    const request = await server.waitForRequest(1);
    await request.closed;
    expect(request.closedByClient).toBe(true);
  });

  it('counts tokens', async () => {
    const count = await anthropic().messages.countTokens(params);

    expect(count.input_tokens).toBeGreaterThan(0);
    expect(server.requests[0]?.path).toBe('/v1/messages/count_tokens');
    expect(server.pendingReplies).toBe(0);
  });

  it('forgets replies, responder and requests on reset', async () => {
    server.script('Before reset');
    server.respond(() => 'From the responder');
    await anthropic().messages.stream(params).finalMessage();
    server.script('Left over');

    server.reset();

    await expect(anthropic().messages.stream(params).finalMessage()).rejects.toThrow('no reply scripted for request #1');
    expect(server.requests).toHaveLength(1);
    expect(server.pendingReplies).toBe(0);
  });

  it('rejects waitForRequest with a clear message when the request never comes', async () => {
    await expect(server.waitForRequest(1, 50)).rejects.toThrow(/^scripted model server: request #1 did not arrive within \d+ ms \(0 received\)$/);
  });
});

describe('scripted model server, OpenAI chat completions', () => {
  const chatParams = { model: 'gpt-test', messages: [{ role: 'user' as const, content: 'List the files' }] };

  it('streams text in several chunks, then a finish reason and the usage', async () => {
    server.script({ parts: [{ text: 'Hello **world**, here I am' }], usage: { inputTokens: 9, outputTokens: 5 } });

    const stream = await openai().chat.completions.create({ ...chatParams, stream: true, stream_options: { include_usage: true } });
    const contents: string[] = [];
    const finishReasons: string[] = [];
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      if (choice?.delta.content) contents.push(choice.delta.content);
      if (choice?.finish_reason) finishReasons.push(choice.finish_reason);
      if (chunk.usage) usage = chunk.usage;
    }

    expect(contents.length).toBeGreaterThan(1);
    expect(contents.join('')).toBe('Hello **world**, here I am');
    expect(finishReasons).toEqual(['stop']);
    expect(usage).toEqual({ prompt_tokens: 9, completion_tokens: 5, total_tokens: 14 });
    expect(server.requests[0]).toMatchObject({ path: '/v1/chat/completions', body: { model: 'gpt-test', stream: true } });
    expect(server.requests[0]?.headers.authorization).toBe('Bearer test');
  });

  it('streams tool calls that the SDK assembles', async () => {
    server.script({
      parts: [
        { text: 'Checking.' },
        { toolUse: { id: 'call_1', name: 'run_command', input: { command: 'ls -la' } } },
        { toolUse: { name: 'read_file', input: { path: '/etc/hostname' } } },
      ],
    });

    const completion = await openai().chat.completions.stream(chatParams).finalChatCompletion();
    const choice = completion.choices[0];

    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.content).toBe('Checking.');
    const calls = choice?.message.tool_calls?.map((call) => (call.type === 'function' ? [call.id, call.function.name, JSON.parse(call.function.arguments)] : call.type));
    expect(calls).toEqual([
      ['call_1', 'run_command', { command: 'ls -la' }],
      [expect.stringMatching(/^call_/), 'read_file', { path: '/etc/hostname' }],
    ]);
  });

  it('answers non-streaming requests with the whole completion', async () => {
    server.script('Plain answer');

    const completion = await openai().chat.completions.create(chatParams);

    expect(completion.choices[0]?.message.content).toBe('Plain answer');
    expect(completion.choices[0]?.finish_reason).toBe('stop');
  });

  it('fails with the SDK error classes for HTTP errors, error chunks and cut streams', async () => {
    server.script(
      { status: 401, message: 'Incorrect API key provided' },
      { parts: [{ text: 'Partial' }], errorEvent: { type: 'server_error', message: 'The server had an error' } },
      { parts: [{ text: 'Cut short' }], cutAfterEvents: 2 },
    );
    const client = openai();
    const drain = async () => {
      for await (const _chunk of await client.chat.completions.create({ ...chatParams, stream: true })) {
        // Only the outcome matters.
      }
    };

    const authentication = await drain().catch((error: unknown) => error);
    expect(authentication).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(authentication).toMatchObject({ status: 401, error: { message: 'Incorrect API key provided' } });
    await expect(drain()).rejects.toThrow('The server had an error');
    await expect(drain()).rejects.toThrow('terminated');
    expect(server.requests).toHaveLength(3);
  });
});

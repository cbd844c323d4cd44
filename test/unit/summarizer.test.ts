import { afterEach, describe, expect, it } from 'vitest';
import type { Block } from '../../src/shared/blocks';
import { AnthropicBackend } from '../../src/main/agent/backends/anthropicBackend';
import { OpenAiCompatibleBackend } from '../../src/main/agent/backends/openaiCompatibleBackend';
import type { ModelUsage } from '../../src/main/agent/backends/modelBackend';
import { modelInput } from '../../src/main/agent/summarizer/modelInput';
import { smallModelFor, type SmallModelChoice } from '../../src/main/agent/summarizer/smallModel';
import { SummaryCache } from '../../src/main/agent/summarizer/summaryCache';
import { Summarizer, SUMMARY_MAX_TOKENS } from '../../src/main/agent/summarizer/summarizer';
import { TYPE_INSTRUCTIONS } from '../../src/main/agent/summarizer/summaryPrompts';
import { runTerminalHistory } from '../../src/main/context/terminalHistory';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/modelServer';

let server: ScriptedModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const SECRET = 'AKIAZ7Q3RT5LXW2M9KPV';
/** 120 lines of a jest run with a failure, and an AWS key printed in the middle. */
const TEST_LOG = [
  ...Array.from({ length: 60 }, (_, i) => ` PASS  src/module${i}.test.ts`),
  ' FAIL  src/auth/login.test.ts',
  '  ● login › rejects a bad password',
  `    debug: using AWS_ACCESS_KEY_ID=${SECRET}`,
  '    Expected: 401',
  '    Received: 200',
  '      at Object.<anonymous> (src/auth/login.test.ts:42:24)',
  ...Array.from({ length: 50 }, (_, i) => `  ✓ case ${i} (${i} ms)`),
  'Test Suites: 1 failed, 60 passed, 61 total',
  'Tests:       1 failed, 110 passed, 111 total',
].join('\n');

interface Harness {
  summarizer: Summarizer;
  server: ScriptedModelServer;
  usage: { usage: ModelUsage; model: string }[];
}

async function harness(options: { timeoutMs?: number; choice?: () => SmallModelChoice } = {}): Promise<Harness> {
  server = await startScriptedModelServer();
  const backend = new AnthropicBackend({ apiKey: 'sk-ant-test', baseURL: server.url, keySource: 'ANTHROPIC_API_KEY' });
  const usage: Harness['usage'] = [];
  const summarizer = new Summarizer({
    smallModel: options.choice ?? (() => ({ ok: true, backend, model: 'claude-haiku-4-5' })),
    countUsage: (u, model) => usage.push({ usage: u, model }),
    timeoutMs: options.timeoutMs,
  });
  return { summarizer, server, usage };
}

const request = (text = TEST_LOG, over: Partial<Parameters<Summarizer['summarize']>[0]> = {}) => ({
  blockId: 'p1b3',
  command: 'npm test',
  exitCode: 1,
  finished: true,
  text,
  ...over,
});

const sentText = (body: unknown) => JSON.stringify(body);

describe('Summarizer', () => {
  it('asks the small model with the output type’s prompt, no tools, a short limit and only scrubbed text; counts its tokens', async () => {
    const { summarizer, server, usage } = await harness();
    server.script({ parts: [{ text: '1 of 111 tests failed: login › rejects a bad password (expected 401, got 200) at src/auth/login.test.ts:42.' }], usage: { inputTokens: 900, outputTokens: 40 } });
    const summary = await summarizer.summarize(request());
    expect(summary.source).toEqual({ kind: 'model', model: 'claude-haiku-4-5' });
    expect(summary.outputType).toBe('test-results');
    expect(summary.text).toContain('rejects a bad password');
    const [sent] = server.requests;
    expect(sent?.body?.model).toBe('claude-haiku-4-5');
    expect(sent?.body?.max_tokens).toBe(SUMMARY_MAX_TOKENS);
    expect(sent?.body?.tools).toBeUndefined();
    expect(String(sent?.body?.system)).toContain(TYPE_INSTRUCTIONS['test-results']);
    expect(sent?.rawBody).not.toContain(SECRET);
    expect(sent?.rawBody).toContain('[REDACTED:aws-access-key');
    expect(sentText(sent?.body?.messages)).toContain('Exit code: 1');
    expect(usage).toEqual([{ usage: { inputTokens: 900, outputTokens: 40 }, model: 'claude-haiku-4-5' }]);
  });

  it('keeps a summary per block: asked again, the same output costs no request; changed output asks anew', async () => {
    const { summarizer, server } = await harness();
    server.script('first summary', 'second summary');
    const [a, b] = await Promise.all([summarizer.summarize(request()), summarizer.summarize(request())]);
    expect(a.text).toBe('first summary');
    expect(b.text).toBe('first summary');
    expect((await summarizer.summarize(request())).text).toBe('first summary');
    expect(server.requests).toHaveLength(1);
    const longer = `${TEST_LOG}\nRan all test suites.`;
    expect((await summarizer.summarize(request(longer))).text).toBe('second summary');
    expect(server.requests).toHaveLength(2);
  });

  it('falls back to local filtering when the small model fails, says why, and asks again next time', async () => {
    const { summarizer, server, usage } = await harness();
    server.script({ status: 500, message: 'internal trouble' }, 'recovered summary');
    const failed = await summarizer.summarize(request());
    expect(failed.source.kind).toBe('local');
    expect(failed.source.kind === 'local' && failed.source.reason).toMatch(/^the small model claude-haiku-4-5 failed: /);
    expect(failed.text).toMatch(/^118 lines; kept the first 5, /);
    expect(failed.text).toContain('FAIL  src/auth/login.test.ts');
    expect(failed.text).toContain('Tests:       1 failed, 110 passed, 111 total');
    expect(failed.text).not.toContain(SECRET);
    expect(usage).toEqual([]);
    const again = await summarizer.summarize(request());
    expect(again.source).toEqual({ kind: 'model', model: 'claude-haiku-4-5' });
    expect(server.requests).toHaveLength(2);
  });

  it('gives up on the small model after the timeout and filters locally', async () => {
    const { summarizer, server } = await harness({ timeoutMs: 300 });
    server.script({ parts: [{ text: 'this never finishes' }], holdAfterEvents: 2 });
    const summary = await summarizer.summarize(request());
    expect(summary.source).toEqual({ kind: 'local', reason: 'the small model claude-haiku-4-5 did not answer within 300 ms' });
    const held = await server.waitForRequest(1);
    await held.closed;
    expect(held.closedByClient).toBe(true);
    // A hung endpoint is left alone for a while: the next summary does not wait again.
    const next = await summarizer.summarize(request(`${TEST_LOG}\nmore`, { blockId: 'p1b4' }));
    expect(next.source).toEqual({ kind: 'local', reason: 'the small model claude-haiku-4-5 did not answer within 300 ms a moment ago, so it is left alone for a minute' });
    expect(server.requests).toHaveLength(1);
  });

  it('falls back when there is no small model (AI off, no key, none named), without a request', async () => {
    const { summarizer, server } = await harness({ choice: () => ({ ok: false, reason: 'no model is connected (no API key or endpoint is set up)' }) });
    const summary = await summarizer.summarize(request());
    expect(summary.source).toEqual({ kind: 'local', reason: 'no model is connected (no API key or endpoint is set up)' });
    expect(summary.text).toContain('Test Suites: 1 failed');
    expect(server.requests).toHaveLength(0);
  });

  it('passes short output and simple commands through as they are, scrubbed', async () => {
    const { summarizer, server } = await harness();
    const short = Array.from({ length: 49 }, (_, i) => `line ${i}`).join('\n');
    expect(await summarizer.summarize(request(short))).toMatchObject({ text: short, source: { kind: 'as-is', reason: 'shorter than 50 lines' } });
    const env = Array.from({ length: 80 }, (_, i) => `/opt/tool${i}/bin`).join('\n') + `\n${SECRET}`;
    const echoed = await summarizer.summarize(request(env, { command: 'echo "$PATH"' }));
    expect(echoed.source).toEqual({ kind: 'as-is', reason: 'a simple command (cd, pwd, echo, which)' });
    expect(echoed.text).not.toContain(SECRET);
    expect(server.requests).toHaveLength(0);
  });

  it('falls back when the model answers with no text', async () => {
    const { summarizer, server } = await harness();
    server.script({ parts: [] });
    const summary = await summarizer.summarize(request());
    expect(summary.source).toEqual({ kind: 'local', reason: 'the small model claude-haiku-4-5 answered with no text' });
  });
});

describe('Summarizer on an OpenAI-compatible endpoint', () => {
  it('sends a chat completion without a tool list (OpenAI refuses an empty one) and counts its usage', async () => {
    server = await startScriptedModelServer();
    const backend = new OpenAiCompatibleBackend({ apiKey: '', baseURL: `${server.url}/v1`, keySource: 'OPENAI_API_KEY' });
    const usage: { usage: ModelUsage; model: string }[] = [];
    const summarizer = new Summarizer({ smallModel: () => ({ ok: true, backend, model: 'gpt-4o-mini' }), countUsage: (u, model) => usage.push({ usage: u, model }) });
    server.script({ parts: [{ text: '1 of 111 tests failed.' }], usage: { inputTokens: 700, outputTokens: 9 } });
    const summary = await summarizer.summarize(request());
    expect(summary).toMatchObject({ text: '1 of 111 tests failed.', source: { kind: 'model', model: 'gpt-4o-mini' } });
    const [sent] = server.requests;
    expect(sent?.path).toBe('/v1/chat/completions');
    expect(sent?.body && 'tools' in sent.body).toBe(false);
    expect(sent?.rawBody).not.toContain(SECRET);
    expect(usage).toEqual([{ usage: { inputTokens: 700, outputTokens: 9 }, model: 'gpt-4o-mini' }]);
  });
});

describe('smallModelFor', () => {
  const backend = new AnthropicBackend({ apiKey: 'k', keySource: 'ANTHROPIC_API_KEY' });
  it('is the cheapest Anthropic model by default, the named one when set, and none for an unnamed OpenAI-compatible endpoint', () => {
    expect(smallModelFor({ backendKind: 'anthropic', model: 'claude-sonnet-5-5', backend }, '')).toMatchObject({ ok: true, model: 'claude-haiku-4-5' });
    expect(smallModelFor({ backendKind: 'anthropic', model: 'claude-sonnet-5-5', backend }, ' claude-3-5-haiku ')).toMatchObject({ ok: true, model: 'claude-3-5-haiku' });
    expect(smallModelFor({ backendKind: 'openai-compatible', model: 'gpt-5', backend }, '')).toEqual({
      ok: false,
      reason: 'no small model is named for the OpenAI-compatible endpoint (set [ai] small_model)',
    });
    expect(smallModelFor({ backendKind: 'openai-compatible', model: 'gpt-5', backend }, 'gpt-4o-mini')).toMatchObject({ ok: true, model: 'gpt-4o-mini' });
    expect(smallModelFor({ backendKind: 'anthropic', model: 'claude-sonnet-5-5', setupHint: 'connect one' }, '')).toEqual({
      ok: false,
      reason: 'no model is connected (no API key or endpoint is set up)',
    });
  });
});

describe('SummaryCache', () => {
  it('keeps the newest entries, refreshes on use, and misses on a changed fingerprint', async () => {
    const cache = new SummaryCache<string>(2);
    cache.set('a', 'f1', Promise.resolve('A'));
    cache.set('b', 'f1', Promise.resolve('B'));
    expect(await cache.get('a', 'f1')).toBe('A');
    cache.set('c', 'f1', Promise.resolve('C'));
    expect(cache.get('b', 'f1')).toBeUndefined();
    expect(await cache.get('a', 'f1')).toBe('A');
    expect(cache.get('a', 'f2')).toBeUndefined();
    const kept = cache.get('c', 'f1')!;
    cache.forget('c', Promise.resolve('other'));
    expect(cache.get('c', 'f1')).toBe(kept);
    cache.forget('c', kept);
    expect(cache.get('c', 'f1')).toBeUndefined();
    expect(SummaryCache.fingerprint('x')).not.toBe(SummaryCache.fingerprint('y'));
  });
});

describe('modelInput', () => {
  it('sends everything that fits, and otherwise head, errors and tail within the budget', () => {
    expect(modelInput('short')).toEqual({ text: 'short' });
    const huge = Array.from({ length: 20_000 }, (_, i) => (i === 12_345 ? 'Error: the one that matters' : `ok ${i} ${'x'.repeat(40)}`)).join('\n');
    const input = modelInput(huge, 20_000);
    expect(input.reduction).toMatch(/too long to send whole/);
    expect(input.text).toContain('ok 0 ');
    expect(input.text).toContain('Error: the one that matters');
    expect(input.text).toContain('ok 19999 ');
    expect(input.text.replace(/… \[[^\]]*\] …/g, '').length).toBeLessThanOrEqual(20_000);
  });
});

describe('terminal_history with the summarizer', () => {
  const block: Block = { id: 'p1b3', paneId: 1, command: 'npm test', cwd: '/srv/app', startedAt: 1, endedAt: 2, exitCode: 1, trusted: true, outputOffset: 0, usedAlternateScreen: false };
  const source = (summarizer: Summarizer) => ({
    blocks: () => [block],
    output: async () => ({ text: TEST_LOG, truncated: false, lineCount: 118 }),
    summarize: (r: Parameters<Summarizer['summarize']>[0]) => summarizer.summarize(r),
  });

  it('marks a model summary as a summary and names the model', async () => {
    const { summarizer, server } = await harness();
    server.script('1 of 111 tests failed: login › rejects a bad password.');
    const result = await runTerminalHistory({ blockId: 'p1b3' }, source(summarizer));
    expect(result).toContain('Summary of its 118 lines written by the small model claude-haiku-4-5 (test results); it is not the output itself');
    expect(result).toContain('<output block="p1b3">\n1 of 111 tests failed: login › rejects a bad password.\n</output>');
  });

  it('says it is local filtering, and why, when the model is not there', async () => {
    const { summarizer } = await harness({ choice: () => ({ ok: false, reason: 'no model is connected (no API key or endpoint is set up)' }) });
    const result = await runTerminalHistory({ blockId: 'p1b3', detail: 'summary' }, source(summarizer));
    expect(result).toContain('Not a model summary (no model is connected (no API key or endpoint is set up)): local filtering of its 118 lines instead');
    expect(result).toContain('Tests:       1 failed, 110 passed, 111 total');
    expect(result).not.toContain(SECRET);
  });
});

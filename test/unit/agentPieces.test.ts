import { describe, expect, it } from 'vitest';
import type { AgentMessage } from '../../src/main/agent/backends/modelBackend';
import { errorForStatus, retryAfterMs } from '../../src/main/agent/backends/modelError';
import { Conversation } from '../../src/main/agent/conversation/conversation';
import { appendMessage, estimateMessagesTokens, fitHistory } from '../../src/main/agent/conversation/conversationHistory';
import { modelFacts } from '../../src/main/agent/modelCatalog';
import { costUsd } from '../../src/main/agent/modelPrices';
import { MemoryKeyStore, connectModel } from '../../src/main/agent/modelConnection';
import { DEFAULT_SETTINGS } from '../../src/shared/settings';

const headers = (values: Record<string, string>) => ({ get: (name: string) => values[name] ?? null });

describe('model errors', () => {
  it('reads retry-after in seconds, as a date, and retry-after-ms', () => {
    expect(retryAfterMs(headers({ 'retry-after': '3' }))).toBe(3_000);
    expect(retryAfterMs(headers({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250);
    expect(retryAfterMs(headers({ 'retry-after': new Date(10_000).toUTCString() }), 4_000)).toBe(6_000);
    expect(retryAfterMs(headers({ 'retry-after': '99999' }))).toBe(600_000);
    expect(retryAfterMs(headers({}))).toBeUndefined();
  });

  it('says what to do for each status, and which are worth retrying', () => {
    const context = { endpoint: 'https://api.example', model: 'm-1', keySource: 'ANTHROPIC_API_KEY' };
    expect(errorForStatus(401, 'bad key', context).message).toMatch(/refused \(401\). Check ANTHROPIC_API_KEY/);
    expect(errorForStatus(404, '', context).message).toMatch(/Model "m-1" was not found/);
    expect(errorForStatus(403, '', context).kind).toBe('permission');
    expect(errorForStatus(429, '', { ...context, retryAfterMs: 5 }).options.retryAfterMs).toBe(5);
    expect(errorForStatus(429, '', context).retryable).toBe(true);
    expect(errorForStatus(503, '', context).retryable).toBe(true);
    expect(errorForStatus(529, '', context).kind).toBe('overloaded');
    expect(errorForStatus(401, '', context).retryable).toBe(false);
    expect(errorForStatus(400, '', context).retryable).toBe(false);
  });
});

describe('conversation history within a token budget', () => {
  const user = (text: string): AgentMessage => ({ role: 'user', content: [{ type: 'text', text }] });
  const assistant = (text: string): AgentMessage => ({ role: 'assistant', content: [{ type: 'text', text }] });

  it('merges consecutive messages of one role', () => {
    const history: AgentMessage[] = [];
    appendMessage(history, 'user', [{ type: 'text', text: 'a' }]);
    appendMessage(history, 'user', [{ type: 'text', text: 'b' }]);
    appendMessage(history, 'assistant', []);
    expect(history).toEqual([{ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] }]);
  });

  it('drops whole exchanges from the front, never splitting a tool call from its result', () => {
    const long = 'x'.repeat(4_000);
    const history: AgentMessage[] = [
      user(`old question ${long}`),
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'run_command', input: { command: 'ls' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: long }] },
      assistant(`old answer ${long}`),
      user('new question'),
      assistant('new answer'),
      user('newest'),
    ];
    const { messages, dropped } = fitHistory(history, 200);
    expect(dropped).toBe(4);
    expect(messages[0]!.role).toBe('user');
    expect(JSON.stringify(messages[0])).toContain('4 earlier messages');
    expect(JSON.stringify(messages)).not.toContain('old question');
    // Every kept tool result still has its call.
    expect(JSON.stringify(messages)).not.toContain('tool_result');
    expect(history).toHaveLength(7);
    expect(fitHistory(history, 1_000_000)).toEqual({ messages: history, dropped: 0 });
  });

  it('keeps the newest exchange even when it alone is over budget', () => {
    const history = [user('a'), assistant('b'), user('y'.repeat(10_000))];
    const { messages } = fitHistory(history, 10);
    expect(messages.at(-1)).toMatchObject({ role: 'user' });
    expect(estimateMessagesTokens(messages)).toBeGreaterThan(10);
    expect(JSON.stringify(messages)).toContain('yyyy');
  });
});

describe('model connection', () => {
  const ai = DEFAULT_SETTINGS.ai;

  it('explains how to connect a model when there is no key and no local endpoint', () => {
    const connection = connectModel(ai, {}, {}, new MemoryKeyStore());
    expect(connection.backend).toBeUndefined();
    expect(connection.setupHint).toMatch(/ANTHROPIC_API_KEY/);
    expect(connection.setupHint).toMatch(/11434/);
  });

  it('takes the key and endpoint from the environment, the model from TANDEM_MODEL', () => {
    const connection = connectModel(ai, {}, { ANTHROPIC_API_KEY: 'k', TANDEM_MODEL: 'claude-x' }, new MemoryKeyStore());
    expect(connection.backend?.kind).toBe('anthropic');
    expect(connection.model).toBe('claude-x');
  });

  it('uses a key stored in settings, and a local OpenAI-compatible server needs none', async () => {
    const keys = new MemoryKeyStore();
    await keys.set('anthropic', 'stored');
    expect(connectModel(ai, {}, {}, keys).backend?.kind).toBe('anthropic');
    const local = connectModel({ ...ai, backend: 'openai-compatible', base_url: 'http://127.0.0.1:11434/v1', model: 'llama3' }, {}, {}, keys);
    expect(local.backend?.kind).toBe('openai-compatible');
    expect(connectModel({ ...ai, backend: 'openai-compatible', base_url: 'https://api.openai.com/v1' }, {}, {}, keys).setupHint).toBeDefined();
  });

  it('knows context windows and prices, and admits when it does not', () => {
    expect(modelFacts('claude-sonnet-5-5').contextWindow).toBe(200_000);
    expect(costUsd('claude-sonnet-5-5', { inputTokens: 1_000_000, outputTokens: 1_000_000 })).toBeCloseTo(18);
    expect(costUsd('llama3:8b', { inputTokens: 1_000, outputTokens: 1_000 })).toBeUndefined();
  });
});

describe('conversation usage and cost', () => {
  const conversationFor = (model: { current: string }) =>
    new Conversation({
      surroundings: () => ({ status: 'idle', backend: 'anthropic', model: model.current, budget: { used: 0, limit: 0 }, grants: [], policyProblems: [] }),
      emit: () => {},
    });

  it('prices each request at the model that answered it; switching model does not reprice the past', () => {
    const model = { current: 'claude-opus-4-1' };
    const conversation = conversationFor(model);
    conversation.countUsage({ inputTokens: 1_000_000, outputTokens: 0 }, 'claude-opus-4-1');
    expect(conversation.view().usage.costUsd).toBeCloseTo(15);
    model.current = 'claude-haiku-4-5';
    expect(conversation.view().usage.costUsd).toBeCloseTo(15);
    conversation.countUsage({ inputTokens: 1_000_000, outputTokens: 0 }, 'claude-haiku-4-5');
    expect(conversation.view().usage.costUsd).toBeCloseTo(16);
    // A local model's requests cost nothing known; the priced ones still count.
    conversation.countUsage({ inputTokens: 5_000, outputTokens: 5_000 }, 'llama3.1');
    expect(conversation.view().usage).toMatchObject({ inputTokens: 2_005_000, outputTokens: 5_000 });
    expect(conversation.view().usage.costUsd).toBeCloseTo(16);
    conversation.dispose();
  });

  it('no cost for a conversation that only used a model without a price; $0 before a priced model answered', () => {
    const model = { current: 'llama3.1' };
    const conversation = conversationFor(model);
    conversation.countUsage({ inputTokens: 100, outputTokens: 100 }, 'llama3.1');
    expect(conversation.view().usage.costUsd).toBeUndefined();
    model.current = 'claude-sonnet-4-5';
    expect(conversation.view().usage.costUsd).toBe(0);
    conversation.dispose();
  });
});

describe('exchanges the model no longer sees', () => {
  it('marks the first item whose exchange still goes to the model once history is dropped', () => {
    const conversation = new Conversation({
      surroundings: () => ({ status: 'idle', backend: 'anthropic', model: 'm', budget: { used: 0, limit: 0 }, grants: [], policyProblems: [] }),
      emit: () => {},
    });
    const exchange = (n: number, size: number) => {
      conversation.add({ id: `u${n}`, role: 'user', text: `question ${n}`, source: 'panel', attachments: [], at: n });
      conversation.appendToHistory('user', [{ type: 'text', text: `question ${n} ${'x'.repeat(size)}` }]);
      conversation.add({ id: `a${n}`, role: 'assistant', text: `answer ${n}`, streaming: false, at: n });
      conversation.appendToHistory('assistant', [{ type: 'text', text: `answer ${n}` }]);
    };
    exchange(1, 4_000);
    exchange(2, 4_000);
    exchange(3, 10);
    conversation.historyWithin(100_000);
    expect(conversation.view().contextStartsAt).toBeUndefined();
    // Room for the last exchange only: the first two are dropped.
    const sent = conversation.historyWithin(500);
    expect(sent[0]?.content.some((part) => part.type === 'text' && part.text.includes('question 3'))).toBe(true);
    expect(conversation.view().contextStartsAt).toBe('u3');
    conversation.reset();
    expect(conversation.view().contextStartsAt).toBeUndefined();
    conversation.dispose();
  });
});

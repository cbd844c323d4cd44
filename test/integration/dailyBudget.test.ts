import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { latest, waitForIdleWithAnswer } from '../support/agentConversation';
import { useAgentEngine } from '../support/agentEngine';
import { waitUntil } from '../support/waitUntil';

// The panel's side of `[ai] daily_budget_usd`, and the spans' sources, with the engine, a real
// bash and the real SDK against the scripted model server.

const open = useAgentEngine();

type SpanLine = { name: string; span_id: string; parent_span: string | null; attributes: Record<string, unknown> };
const spansIn = (home: string): SpanLine[] => {
  const file = join(home, '.local/state/tandem/traces.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as SpanLine);
};

describe('[ai] daily_budget_usd in the panel', () => {
  it('once today’s spend reaches the budget, the next message is refused before it is sent, with a card that says how to go on', async () => {
    const { client, model, paneId } = await open({ configToml: '[ai]\ndaily_budget_usd = 0.005\n' });
    model.script({ parts: [{ text: 'First answer.' }], usage: { inputTokens: 1_000, outputTokens: 200 } }, { parts: [{ text: 'Never sent.' }] });
    await client.request('agent.send', { text: 'first', attachments: [], paneId });
    await waitForIdleWithAnswer(client, 'First answer.');

    await client.request('agent.send', { text: 'second', attachments: [], paneId });
    const card = await client.waitFor(() => latest(client)?.items.find((item) => item.role === 'error'), 15_000, 'the budget card');
    expect(card).toMatchObject({ role: 'error', dailyBudget: true });
    expect(card.role === 'error' && card.text).toContain("today's model spend is $0.0060, which reaches the daily budget of $0.0050 ([ai] daily_budget_usd)");
    expect(card.role === 'error' && card.text).toContain('raise daily_budget_usd in the [ai] section');
    expect(model.requests).toHaveLength(1);
  });
});

describe('[ai] daily_budget_usd in an !auto run', () => {
  it('the step that ran stays; the run ends at the budget, says which limit, and its requests are source auto', async () => {
    const { client, model, paneId, home } = await open({ configToml: '[ai]\ndaily_budget_usd = 0.005\n' });
    model.script({ parts: [{ toolUse: { id: 'toolu_a', name: 'run_command', input: { command: 'echo auto-step', purpose: 'a step' } } }], usage: { inputTokens: 1_000, outputTokens: 200 } }, { parts: [{ text: 'Never sent.' }] });
    await client.request('agent.auto', { paneId, task: 'do the task' });
    const summary = await client.waitFor(() => latest(client)?.items.find((item) => item.role === 'summary'), 30_000, 'the auto summary');
    expect(summary.role === 'summary' && summary.summary.end).toEqual({ kind: 'limit', limit: 'daily-budget', detail: "today's spend reached the daily budget ([ai] daily_budget_usd)" });
    expect(summary.role === 'summary' && summary.summary.steps[0]).toMatchObject({ command: 'echo auto-step', status: 'done' });
    expect(model.requests).toHaveLength(1);
    await waitUntil(() => spansIn(home).some((span) => span.name === 'invoke_agent'), 'the run in the traces file');
    expect(spansIn(home).find((span) => span.name === 'chat claude-sonnet-5-5')?.attributes['tandem.source']).toBe('auto');
  });
});

describe('the sources of model requests in the traces', () => {
  it('a panel instruction is source panel; the small model’s summary of a long block is a chat span with source summarizer under it', async () => {
    const { client, model, paneId, home } = await open();
    writeFileSync(join(home, 'long.txt'), `${Array.from({ length: 150 }, (_, i) => `line ${i} of a long log`).join('\n')}\n`);
    client.type(paneId, 'cat long.txt\r');
    const block = await client.waitForBlock(paneId, 'cat long.txt');
    model.script(
      { parts: [{ toolUse: { id: 'toolu_s', name: 'terminal_history', input: { blockId: block.id, detail: 'summary' } } }], usage: { inputTokens: 100, outputTokens: 10 } },
      { parts: [{ text: 'A long log of 150 lines.' }], usage: { inputTokens: 2_000, outputTokens: 20 } },
      { parts: [{ text: 'It is a log.' }] },
    );
    await client.request('agent.send', { text: 'what is in it?', attachments: [], paneId });
    await waitForIdleWithAnswer(client, 'It is a log.');

    await waitUntil(() => spansIn(home).some((span) => span.name === 'invoke_agent'), 'the instruction span in the traces file');
    const spans = spansIn(home);
    const root = spans.find((span) => span.name === 'invoke_agent')!;
    expect(root.attributes['tandem.source']).toBe('panel');
    const summary = spans.find((span) => span.name === 'chat claude-haiku-4-5')!;
    expect(summary).toMatchObject({ parent_span: root.span_id, attributes: { 'tandem.source': 'summarizer', 'gen_ai.usage.input_tokens': 2_000, 'gen_ai.usage.output_tokens': 20 } });
    expect(summary.attributes['tandem.cost_usd']).toBeCloseTo((2_000 * 1 + 20 * 5) / 1_000_000, 10);
    expect(spans.filter((span) => span.name === 'chat claude-sonnet-5-5').map((span) => span.attributes['tandem.source'])).toEqual(['panel', 'panel']);
  });
});

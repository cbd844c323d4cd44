import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BlockSummaryItem } from '../../src/shared/agent';
import { costUsd } from '../../src/main/agent/modelPrices';
import { TYPE_INSTRUCTIONS } from '../../src/main/agent/summarizer/summaryPrompts';
import { latest, toolResults, waitForIdleWithAnswer } from '../support/agentConversation';
import { useAgentEngine } from '../support/agentEngine';
import type { EngineClient } from '../support/engineClient';

const open = useAgentEngine();

const SECRET = 'AKIAZ7Q3RT5LXW2M9KPV';

/** A jest-like run of 150 lines with one failure and an AWS key printed in its middle. */
function writeTestLog(home: string): string {
  const lines = [
    ...Array.from({ length: 100 }, (_, i) => ` PASS  src/module${i}.test.ts`),
    ' FAIL  src/auth/login.test.ts',
    '  ● login › rejects a bad password',
    `    debug: AWS_ACCESS_KEY_ID=${SECRET}`,
    '    Expected: 401',
    '    Received: 200',
    ...Array.from({ length: 43 }, (_, i) => `  ✓ case ${i} (${i} ms)`),
    'Test Suites: 1 failed, 100 passed, 101 total',
    'Tests:       1 failed, 143 passed, 144 total',
  ];
  writeFileSync(join(home, 'run-output.txt'), `${lines.join('\n')}\n`);
  return 'cat run-output.txt';
}

function blockSummary(client: EngineClient, predicate: (item: BlockSummaryItem) => boolean, what: string): Promise<BlockSummaryItem> {
  return client.waitFor(
    () => latest(client)?.items.find((item): item is BlockSummaryItem => item.role === 'block-summary' && predicate(item)),
    15_000,
    what,
  );
}

describe('the summarizer, with a real bash and the real SDK against a scripted model', () => {
  it('terminal_history "summary" asks the small model with the type’s prompt and scrubbed text only; the result is marked, the tokens counted', async () => {
    const { client, model, paneId, home } = await open();
    const command = writeTestLog(home);
    client.type(paneId, `${command}\r`);
    const block = await client.waitForBlock(paneId, command);
    model.script(
      { parts: [{ toolUse: { id: 'toolu_h', name: 'terminal_history', input: { blockId: block.id, detail: 'summary' } } }] },
      { parts: [{ text: '1 of 144 tests failed: login › rejects a bad password (expected 401, received 200).' }], usage: { inputTokens: 5_000, outputTokens: 50 } },
      { parts: [{ text: 'The login test fails.' }] },
    );
    await client.request('agent.send', { text: 'what failed?', attachments: [], paneId });

    const small = await model.waitForRequest(2);
    expect(small.body?.model).toBe('claude-haiku-4-5');
    expect(small.body?.tools).toBeUndefined();
    expect(small.body?.max_tokens).toBeLessThanOrEqual(1_000);
    expect(String(small.body?.system)).toContain(TYPE_INSTRUCTIONS['test-results']);
    expect(small.rawBody).toContain('FAIL  src/auth/login.test.ts');
    expect(small.rawBody).not.toContain(SECRET);
    expect(small.rawBody).toContain('[REDACTED:aws-access-key');

    const main = await model.waitForRequest(3);
    expect(main.body?.model).toBe('claude-sonnet-5-5');
    const [result] = toolResults(main);
    expect(result?.content).toContain('Summary of its 150 lines written by the small model claude-haiku-4-5 (test results); it is not the output itself');
    expect(result?.content).toContain('1 of 144 tests failed: login › rejects a bad password');
    expect(result?.content).not.toContain(' PASS  src/module7.test.ts');

    const view = await waitForIdleWithAnswer(client, 'The login test fails.');
    const tool = view.items.find((item) => item.role === 'tool');
    expect(tool?.role === 'tool' && tool.summary).toContain('summarised by claude-haiku-4-5');
    // The panel's figures: the three requests, the summary priced at the small model's rate.
    expect(view.usage.inputTokens).toBe(10 + 5_000 + 10);
    const mainOutput = view.usage.outputTokens - 50;
    expect(view.usage.costUsd).toBeCloseTo(costUsd('claude-sonnet-5-5', { inputTokens: 20, outputTokens: mainOutput })! + costUsd('claude-haiku-4-5', { inputTokens: 5_000, outputTokens: 50 })!, 10);
    expect(view.budget.used).toBe(view.usage.inputTokens + view.usage.outputTokens);
  });

  it('"Summarize output" puts the summary in the panel, says which block and which model; asked again, it is not sent again', async () => {
    const { client, model, paneId, home } = await open();
    const command = writeTestLog(home);
    client.type(paneId, `${command}\r`);
    const block = await client.waitForBlock(paneId, command);
    model.script('1 of 144 tests failed: login › rejects a bad password.');
    await client.request('agent.summarize', { paneId, blockId: block.id });
    const item = await blockSummary(client, (candidate) => candidate.state === 'done', 'the block summary');
    expect(item).toMatchObject({ blockId: block.id, command, exitCode: 0, source: { kind: 'model', model: 'claude-haiku-4-5' }, outputType: 'test results', lineCount: 150 });
    expect(item.text).toBe('1 of 144 tests failed: login › rejects a bad password.');
    expect(model.requests[0]?.rawBody).not.toContain(SECRET);

    await client.request('agent.summarize', { paneId, blockId: block.id });
    await client.waitFor(() => (latest(client)?.items.filter((candidate) => candidate.role === 'block-summary' && candidate.state === 'done').length ?? 0) >= 2, 15_000, 'the second summary');
    expect(model.requests).toHaveLength(1);

    // The model hears of it with the next message.
    model.script('Noted.');
    await client.request('agent.send', { text: 'and now?', attachments: [], paneId });
    const next = await model.waitForRequest(2);
    expect(JSON.stringify(next.body?.messages)).toContain(`block ${block.id}`);
    expect(JSON.stringify(next.body?.messages)).toContain('1 of 144 tests failed');
  });

  it('with no API key (AI off) the block summary is local filtering, and says so', async () => {
    const { client, model, paneId, home } = await open({ env: { ANTHROPIC_API_KEY: '' } });
    const command = writeTestLog(home);
    client.type(paneId, `${command}\r`);
    const block = await client.waitForBlock(paneId, command);
    await client.request('agent.summarize', { paneId, blockId: block.id });
    const item = await blockSummary(client, (candidate) => candidate.state === 'done', 'the local summary');
    expect(item.source).toEqual({ kind: 'local', reason: 'no model is connected (no API key or endpoint is set up)' });
    expect(item.text).toMatch(/^150 lines; kept the first 5, /);
    expect(item.text).toContain('Tests:       1 failed, 143 passed, 144 total');
    expect(item.text).not.toContain(SECRET);
    expect(model.requests).toHaveLength(0);
  });

  it('an OpenAI-compatible endpoint without [ai] small_model: terminal_history filters locally and says why', async () => {
    const { client, model, paneId, home } = await open({ openAiCompatible: true });
    const command = writeTestLog(home);
    client.type(paneId, `${command}\r`);
    const block = await client.waitForBlock(paneId, command);
    model.script({ parts: [{ toolUse: { name: 'terminal_history', input: { blockId: block.id } } }] }, 'Seen.');
    await client.request('agent.send', { text: 'what failed?', attachments: [], paneId });
    const second = await model.waitForRequest(2);
    expect(second.body?.model).toBe('llama3');
    const content = JSON.stringify(second.body?.messages);
    expect(content).toContain('Not a model summary (no small model is named for the OpenAI-compatible endpoint (set [ai] small_model))');
    expect(content).toContain('FAIL  src/auth/login.test.ts');
    expect(content).not.toContain(SECRET);
    await waitForIdleWithAnswer(client, 'Seen.');
    expect(model.requests).toHaveLength(2);
  });
});

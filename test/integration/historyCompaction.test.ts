import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentMessage } from '../../src/main/agent/backends/modelBackend';
import { estimateMessagesTokens } from '../../src/main/agent/conversation/conversationHistory';
import { latest, waitForIdleWithAnswer } from '../support/agentConversation';
import { useAgentEngine } from '../support/agentEngine';
import { messageSequenceProblem } from '../support/modelServer/messageSequence';

// A long conversation through the real SDK against the scripted model server, which checks
// every request's message sequence as the API does: once the history passes
// `[ai] compact_at_percent` of the model's window, older turns go as Tandem's summary, the
// requests stop growing, the newest turn goes whole, and the panel says it happened.

const open = useAgentEngine();

const TURNS = 14;
/** 2% of claude-sonnet-5-5's 200,000-token window. */
const THRESHOLD_TOKENS = 4_000;

function notes(): string {
  const lines = Array.from({ length: 60 }, (_, index) => `note ${String(index + 1).padStart(2, '0')}: the build step that copies assets is slow`);
  return `${lines.join('\n')}\nlast line of the notes\n`;
}

function messagesOf(body: { messages?: unknown } | undefined): AgentMessage[] {
  return (body?.messages ?? []) as AgentMessage[];
}

describe('compacting a long conversation', () => {
  it('keeps every request under the threshold with valid tool pairs and the newest turn whole, and marks the compaction in the panel', async () => {
    const { client, model, paneId, home } = await open({ configToml: '[ai]\ncompact_at_percent = 2\n' });
    model.checkMessageSequence(true);
    writeFileSync(join(home, 'notes.txt'), notes());

    for (let turn = 1; turn <= TURNS; turn++) {
      model.script({ parts: [{ text: `Reading the notes (${turn}).` }, { toolUse: { id: `read${turn}`, name: 'read_file', input: { path: 'notes.txt' } } }] }, { parts: [{ text: `Answer ${turn}: the asset copy is slow.` }] });
      await client.request('agent.send', { text: `question ${turn}: what do the notes say?`, attachments: [], paneId });
      await waitForIdleWithAnswer(client, `Answer ${turn}:`);
    }

    const requests = model.requests;
    expect(requests).toHaveLength(TURNS * 2);
    for (const request of requests) expect(messageSequenceProblem(request.body?.messages), `request ${request.index}`).toBeUndefined();
    expect(latest(client)?.items.filter((item) => item.role === 'error')).toEqual([]);

    // Without compaction the last request would carry all 14 reads; with it, none is over the threshold.
    const sizes = requests.map((request) => estimateMessagesTokens(messagesOf(request.body)));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(THRESHOLD_TOKENS);
    const oneRead = estimateMessagesTokens([messagesOf(requests[1]!.body).at(-1)!]);
    expect(oneRead * TURNS).toBeGreaterThan(THRESHOLD_TOKENS * 3);

    const last = messagesOf(requests.at(-1)!.body);
    const summary = last[0]!.content[0]!;
    expect(summary.type === 'text' && summary.text).toMatch(/^\[Earlier in this conversation, compacted by Tandem/);
    expect(summary.type === 'text' && summary.text).toContain('- The user: "question 1: what do the notes say?"');
    expect(summary.type === 'text' && summary.text).toContain('You called read_file notes.txt →');
    // The newest turn whole: the question, the call and the whole file it read.
    const text = JSON.stringify(last.slice(-3));
    expect(text).toContain(`question ${TURNS}: what do the notes say?`);
    expect(text).toContain(`"tool_use_id":"read${TURNS}"`);
    expect(text).toContain('last line of the notes');

    const view = latest(client)!;
    expect(view.compaction?.turns).toBeGreaterThanOrEqual(TURNS - 4);
    expect(view.compaction!.toTokens).toBeLessThan(view.compaction!.fromTokens);
    const marked = view.items.find((item) => item.id === view.compaction?.startsAt);
    expect(marked).toMatchObject({ role: 'user', text: expect.stringMatching(/^question \d+: what do the notes say\?$/) });
    // The panel keeps every message; "What was sent" shows the summary the model got.
    expect(view.items.filter((item) => item.role === 'user')).toHaveLength(TURNS);
    const answer = view.items.filter((item) => item.role === 'assistant').at(-1)!;
    const { payload } = await client.request('agent.sent', { itemId: answer.id });
    expect(payload).toContain('compacted by Tandem to save context');
  });
});

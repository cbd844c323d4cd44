import { describe, expect, it } from 'vitest';
import type { AgentMessage } from '../../src/main/agent/backends/modelBackend';
import { Conversation } from '../../src/main/agent/conversation/conversation';
import { estimateMessagesTokens } from '../../src/main/agent/conversation/conversationHistory';
import { compactHistory } from '../../src/main/agent/conversation/historyCompaction';
import { messageImages } from '../../src/main/agent/vision/imageTokens';
import { IMAGE_SLACK, KEPT_IMAGES } from '../../src/main/agent/vision/recentImages';
import { messageSequenceProblem } from '../support/modelServer/messageSequence';

// Older turns go to the model as Tandem's own summary once the history passes a threshold;
// the newest go whole, the sequence stays one the API accepts, and the cut moves in steps.

const OUTPUT = 'line of output from the build\n'.repeat(120);

function commandResult(id: string, command: string, exitCode: number): AgentMessage['content'][number] {
  const text = `Command: ${command}\nPane: 1 · cwd: /home/u\nExit code: ${exitCode} · duration 1.2 s\nOutput (120 lines, 3.6 KB):\n<output block="p1b${id}">\n${OUTPUT}</output>`;
  return { type: 'tool_result', tool_use_id: id, content: text, ...(exitCode !== 0 ? { is_error: true } : {}) };
}

/** One turn: the user asks, the model runs a command, sees its output, answers. */
function turn(n: number): AgentMessage[] {
  return [
    { role: 'user', content: [{ type: 'text', text: `question number ${n}: why does make fail?` }] },
    { role: 'assistant', content: [{ type: 'text', text: `Let me look (${n}).` }, { type: 'tool_use', id: `t${n}`, name: 'run_command', input: { command: `make target${n}`, purpose: 'build' } }] },
    { role: 'user', content: [commandResult(`t${n}`, `make target${n}`, n % 2)] },
    { role: 'assistant', content: [{ type: 'text', text: `Answer ${n}: the build ${n % 2 ? 'fails on a missing header' : 'works'}.` }] },
  ];
}

/** `turns` turns, numbered from `first`. */
function history(turns: number, first = 1): AgentMessage[] {
  return Array.from({ length: turns }, (_, index) => turn(first + index)).flat();
}

function textOf(messages: AgentMessage[]): string {
  return JSON.stringify(messages);
}

describe('compacting the history sent to the model', () => {
  it('sends a history under the threshold as it is', () => {
    const messages = history(2);
    const result = compactHistory(messages, 100_000);
    expect(result.facts).toBeUndefined();
    expect(result.messages).toEqual(messages);
  });

  it('past the threshold: older turns become one summary, the newest go whole, the sequence stays valid and the size bounded', () => {
    const messages = history(30);
    const threshold = 8_000;
    expect(estimateMessagesTokens(messages)).toBeGreaterThan(threshold * 4);
    const { messages: sent, facts } = compactHistory(messages, threshold);
    expect(messageSequenceProblem(sent)).toBeUndefined();
    expect(estimateMessagesTokens(sent)).toBeLessThanOrEqual(threshold);
    // The newest turn is sent exactly as it is in the history.
    expect(sent.slice(-4)).toEqual(messages.slice(-4));
    // Cut at the start of a turn: the summary goes first in that turn's question, everything after as it is.
    const cut = facts!.messages;
    expect(sent[0]!.content.slice(1)).toEqual(messages[cut]!.content);
    expect(sent.slice(1)).toEqual(messages.slice(cut + 1));
    expect(facts!.turns).toBe(cut / 4);
    expect(facts!.turns).toBeGreaterThan(20);
    expect(facts!.fromTokens).toBeGreaterThan(facts!.toTokens * 5);
    const summary = sent[0]!.content[0]!;
    expect(summary.type).toBe('text');
    const text = summary.type === 'text' ? summary.text : '';
    expect(text).toMatch(/^\[Earlier in this conversation, compacted by Tandem/);
    // Each command with its exit code and the block that holds its output; the user's words; the answers.
    expect(text).toContain('You called run_command `make target21` → error: exit 1, output in block p1bt21');
    expect(text).toContain('- The user: "question number 22: why does make fail?"');
    expect(text).toContain('You answered: "Answer 22: the build works."');
    expect(text).not.toContain('line of output from the build');
  });

  it('keeps its cut until the history passes the threshold again, then moves it forward', () => {
    const threshold = 8_000;
    const first = compactHistory(history(30), threshold);
    const cut = first.facts!.messages;
    // One more short exchange: the same summary goes out again (a prefix cache keeps working).
    const grown = [...history(30), { role: 'user' as const, content: [{ type: 'text' as const, text: 'thanks' }] }];
    const again = compactHistory(grown, threshold, cut);
    expect(again.facts?.messages).toBe(cut);
    expect(again.messages[0]).toEqual(first.messages[0]);
    // Many more turns: past the threshold again, the cut moves on and the size is bounded again.
    const longer = history(60);
    const moved = compactHistory(longer, threshold, cut);
    expect(moved.facts!.messages).toBeGreaterThan(cut);
    expect(estimateMessagesTokens(moved.messages)).toBeLessThanOrEqual(threshold);
    expect(messageSequenceProblem(moved.messages)).toBeUndefined();
  });

  it('cuts inside one long turn (an auto run of many steps) between a result and the next call, the task kept in the summary', () => {
    const task: AgentMessage = { role: 'user', content: [{ type: 'text', text: 'fix every failing target' }] };
    const steps = Array.from({ length: 25 }, (_, index): AgentMessage[] => [
      { role: 'assistant', content: [{ type: 'tool_use', id: `s${index}`, name: 'run_command', input: { command: `make step${index}` } }] },
      { role: 'user', content: [commandResult(`s${index}`, `make step${index}`, 0)] },
    ]).flat();
    const messages = [task, ...steps];
    const { messages: sent, facts } = compactHistory(messages, 6_000);
    expect(messageSequenceProblem(sent)).toBeUndefined();
    expect(sent[0]).toMatchObject({ role: 'user' });
    expect(sent[1]).toMatchObject({ role: 'assistant' });
    expect(facts!.turns).toBe(1);
    expect(textOf(sent)).toContain('The user: \\"fix every failing target\\"');
    expect(sent.at(-1)).toEqual(messages.at(-1));
  });

  it("keeps Tandem's notes that came with a message (how an auto run ended) in the summary", () => {
    const messages: AgentMessage[] = [
      ...history(20),
      { role: 'user', content: [{ type: 'text', text: '[The auto run of the task "fix it" ended early: its token budget of 1,000 was used up.]' }, { type: 'text', text: 'go on please' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Going on.' }] },
      ...history(20, 21),
    ];
    const { messages: sent } = compactHistory(messages, 8_000);
    expect(messageSequenceProblem(sent)).toBeUndefined();
    const summary = sent[0]!.content[0]!;
    expect(summary.type === 'text' && summary.text).toContain('- With it: "[The auto run of the task "fix it" ended early: its token budget of 1,000 was used up.]"\n- The user: "go on please"');
  });

  it('a summary too long for its share leaves out the oldest turns and says how many', () => {
    const { messages: sent } = compactHistory(history(200), 4_000);
    const summary = sent[0]!.content[0]!;
    expect(summary.type === 'text' && summary.text).toMatch(/\(The first \d+ turns are left out of this summary\.\)/);
    expect(estimateMessagesTokens(sent)).toBeLessThanOrEqual(4_000);
    expect(messageSequenceProblem(sent)).toBeUndefined();
  });
});

describe('the conversation compacts what it sends, and says so in its view', () => {
  function conversationWith(turns: number): Conversation {
    const conversation = new Conversation({
      surroundings: () => ({ status: 'idle', backend: 'anthropic', model: 'm', budget: { used: 0, limit: 0 }, grants: [], policyProblems: [] }),
      emit: () => {},
    });
    for (let n = 1; n <= turns; n++) {
      const [ask, call, result, answer] = turn(n);
      conversation.add({ id: `u${n}`, role: 'user', text: `question number ${n}`, source: 'panel', attachments: [], at: n });
      conversation.appendToHistory('user', ask!.content);
      conversation.appendToHistory('assistant', call!.content);
      conversation.appendToHistory('user', result!.content);
      conversation.add({ id: `a${n}`, role: 'assistant', text: `Answer ${n}`, streaming: false, at: n });
      conversation.appendToHistory('assistant', answer!.content);
    }
    return conversation;
  }

  it('marks the first item sent whole, with the turns and tokens before and after; the history itself stays whole', () => {
    const conversation = conversationWith(30);
    expect(conversation.historyWithin(1_000_000, 0)).toHaveLength(120);
    expect(conversation.view().compaction).toBeUndefined();
    const sent = conversation.historyWithin(1_000_000, 8_000);
    const compaction = conversation.view().compaction!;
    expect(compaction.turns).toBeGreaterThan(20);
    expect(compaction.toTokens).toBeLessThan(compaction.fromTokens);
    const firstWhole = sent[0]!.content[1];
    // The cut is at a turn here: the summary joins that turn's question, whose item is marked.
    expect(firstWhole?.type === 'text' && firstWhole.text).toBe(`question number ${compaction.turns + 1}: why does make fail?`);
    expect(compaction.startsAt).toBe(`u${compaction.turns + 1}`);
    expect(conversation.view().items).toHaveLength(60);
    conversation.reset();
    expect(conversation.view().compaction).toBeUndefined();
    conversation.dispose();
  });

  it('keeps leaving out old screenshots from what it sends whole', () => {
    const conversation = conversationWith(12);
    for (let n = 1; n <= 6; n++) {
      conversation.appendToHistory('assistant', [{ type: 'tool_use', id: `shot${n}`, name: 'screenshot', input: { target: 'screen' } }]);
      conversation.appendToHistory('user', [
        { type: 'tool_result', tool_use_id: `shot${n}`, content: [{ type: 'text', text: `Screenshot ${n}` }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }] },
      ]);
    }
    const sent = conversation.historyWithin(1_000_000, 8_000);
    expect(conversation.view().compaction).toBeDefined();
    expect(messageSequenceProblem(sent)).toBeUndefined();
    expect(messageImages(sent).length).toBeLessThanOrEqual(KEPT_IMAGES + IMAGE_SLACK);
    expect(textOf(sent.slice(-2))).toContain('"type":"image"');
    conversation.dispose();
  });
});

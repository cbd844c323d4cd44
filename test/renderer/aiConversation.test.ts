import { beforeEach, describe, expect, it } from 'vitest';
import type { ConversationItem, ConversationView } from '../../src/shared/agent';
import { appendDeltas, type AgentDelta } from '../../src/renderer/src/ai/conversationDeltas';
import { isAgentBusy, useConversationStore } from '../../src/renderer/src/ai/conversationStore';
import { DeltaBatcher, type FrameScheduler } from '../../src/renderer/src/ai/deltaBatcher';
import { conversationView } from './support/conversationView';

function view(id: string, items: ConversationItem[], overrides: Partial<ConversationView> = {}): ConversationView {
  return conversationView(items, { id, model: 'claude-test', usage: { inputTokens: 0, outputTokens: 0, contextTokens: 0, contextWindow: 200_000 }, ...overrides });
}

const user: ConversationItem = { id: 'u1', role: 'user', text: 'why?', source: 'panel', attachments: [], at: 1 };
const answer = (id: string, text: string): ConversationItem => ({ id, role: 'assistant', text, streaming: true, at: 2 });
const delta = (itemId: string, text: string, conversationId = 'c1'): AgentDelta => ({ conversationId, itemId, text });

function textOf(conversation: ConversationView | undefined, itemId: string): string | undefined {
  const item = conversation?.items.find((candidate) => candidate.id === itemId);
  return item?.role === 'assistant' ? item.text : undefined;
}

describe('appendDeltas', () => {
  it('appends to the item with that id, in order, leaving other items untouched (same objects)', () => {
    const before = view('c1', [user, answer('a1', 'Because'), answer('a2', 'Other')]);
    const after = appendDeltas(before, [delta('a1', ' the'), delta('a1', ' file'), delta('a1', ' is missing.')]);
    expect(textOf(after, 'a1')).toBe('Because the file is missing.');
    expect(textOf(after, 'a2')).toBe('Other');
    expect(after?.items[0]).toBe(before.items[0]);
    expect(after?.items[2]).toBe(before.items[2]);
    expect(textOf(before, 'a1')).toBe('Because');
  });

  it('ignores deltas for another conversation, unknown items and non-assistant items', () => {
    const before = view('c1', [user, answer('a1', 'Hi')]);
    expect(appendDeltas(before, [delta('a1', ' stale', 'c0')])).toBe(before);
    expect(appendDeltas(before, [delta('nope', 'x')])).toBe(before);
    expect(appendDeltas(before, [delta('u1', 'x')])).toBe(before);
    expect(appendDeltas(before, [])).toBe(before);
    expect(appendDeltas(undefined, [delta('a1', 'x')])).toBeUndefined();
    const mixed = appendDeltas(before, [delta('a1', ' there', 'c0'), delta('a1', '!')]);
    expect(textOf(mixed, 'a1')).toBe('Hi!');
  });
});

describe('conversation store', () => {
  beforeEach(() => useConversationStore.getState().clear());

  it('replaces the whole view, and appends deltas to the right item of the current conversation', () => {
    const store = useConversationStore.getState();
    store.replace(view('c1', [user, answer('a1', '')], { status: 'streaming' }));
    store.appendDeltas([delta('a1', 'Hello')]);
    store.appendDeltas([delta('a1', ', world'), delta('a1', 'ignored', 'c2')]);
    expect(textOf(useConversationStore.getState().conversation, 'a1')).toBe('Hello, world');
    expect(isAgentBusy(useConversationStore.getState().conversation)).toBe(true);

    store.replace(view('c2', [], { status: 'idle' }));
    const replaced = useConversationStore.getState().conversation;
    expect(replaced?.id).toBe('c2');
    expect(replaced?.items).toEqual([]);
    expect(isAgentBusy(replaced)).toBe(false);
    store.appendDeltas([delta('a1', 'late', 'c1')]);
    expect(useConversationStore.getState().conversation).toBe(replaced);
  });

  it('does not notify subscribers when nothing applies', () => {
    const store = useConversationStore.getState();
    store.replace(view('c1', [answer('a1', '')]));
    let notified = 0;
    const unsubscribe = useConversationStore.subscribe(() => notified++);
    store.appendDeltas([delta('a1', 'x', 'other')]);
    expect(notified).toBe(0);
    store.appendDeltas([delta('a1', 'x')]);
    expect(notified).toBe(1);
    unsubscribe();
  });
});

describe('delta batcher', () => {
  function manualFrames() {
    const callbacks = new Map<number, () => void>();
    let next = 0;
    const scheduler: FrameScheduler = {
      request: (callback) => {
        callbacks.set(++next, callback);
        return next;
      },
      cancel: (handle) => callbacks.delete(handle),
    };
    const runFrame = () => {
      const pending = [...callbacks.values()];
      callbacks.clear();
      pending.forEach((callback) => callback());
    };
    return { scheduler, runFrame, pendingFrames: () => callbacks.size };
  }

  it('applies all deltas of a frame at once, one frame requested at a time', () => {
    const frames = manualFrames();
    const batches: AgentDelta[][] = [];
    const batcher = new DeltaBatcher((batch) => batches.push(batch), frames.scheduler);
    batcher.push(delta('a1', 'a'));
    batcher.push(delta('a1', 'b'));
    batcher.push(delta('a1', 'c'));
    expect(frames.pendingFrames()).toBe(1);
    expect(batches).toEqual([]);
    frames.runFrame();
    expect(batches.map((batch) => batch.map((entry) => entry.text).join(''))).toEqual(['abc']);
    batcher.push(delta('a1', 'd'));
    frames.runFrame();
    expect(batches).toHaveLength(2);
  });

  it('drops waiting deltas when a whole view arrives (it already holds their text)', () => {
    const frames = manualFrames();
    const batches: AgentDelta[][] = [];
    const batcher = new DeltaBatcher((batch) => batches.push(batch), frames.scheduler);
    batcher.push(delta('a1', 'already in the view'));
    batcher.discard();
    expect(frames.pendingFrames()).toBe(0);
    frames.runFrame();
    expect(batches).toEqual([]);
    batcher.push(delta('a1', 'after'));
    frames.runFrame();
    expect(batches).toEqual([[delta('a1', 'after')]]);
  });
});

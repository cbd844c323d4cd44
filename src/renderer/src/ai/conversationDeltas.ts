import type { AgentEvents, ConversationView } from '../../../shared/agent';

export type AgentDelta = AgentEvents['agent.delta'];

/**
 * Streaming text appended to the assistant items it belongs to. Items without new text keep
 * their identity, so memoised rendering skips them. Deltas for another conversation, or for
 * an item this view does not hold, are dropped: the engine's next full view carries them.
 * Returns the same view when nothing applies.
 */
export function appendDeltas(view: ConversationView | undefined, deltas: readonly AgentDelta[]): ConversationView | undefined {
  if (!view) return view;
  const textByItem = new Map<string, string>();
  for (const delta of deltas) {
    if (delta.conversationId !== view.id || delta.text === '') continue;
    textByItem.set(delta.itemId, (textByItem.get(delta.itemId) ?? '') + delta.text);
  }
  if (textByItem.size === 0) return view;
  let changed = false;
  const items = view.items.map((item) => {
    const added = textByItem.get(item.id);
    if (added === undefined || item.role !== 'assistant') return item;
    changed = true;
    return { ...item, text: item.text + added };
  });
  return changed ? { ...view, items } : view;
}

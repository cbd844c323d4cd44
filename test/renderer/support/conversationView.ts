import type { ConversationItem, ConversationView } from '../../../src/shared/agent';

/** A conversation view as the engine sends it, idle and empty unless told otherwise. */
export function conversationView(items: ConversationItem[] = [], overrides: Partial<ConversationView> = {}): ConversationView {
  return {
    id: 'c1',
    items,
    status: 'idle',
    backend: 'anthropic',
    model: 'm',
    usage: { inputTokens: 0, outputTokens: 0, contextTokens: 0, contextWindow: 1 },
    queued: 0,
    budget: { used: 0, limit: 0 },
    grants: [],
    policyProblems: [],
    ...overrides,
  };
}

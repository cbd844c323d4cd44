import { create } from 'zustand';
import type { ConversationView } from '../../../shared/agent';
import { appendDeltas, type AgentDelta } from './conversationDeltas';

interface ConversationState {
  /** The engine's view of the conversation; undefined until the first `agent.state`. */
  conversation: ConversationView | undefined;
  /** A whole view from the engine (`agent.conversation`, `agent.state`, `agent.new`). */
  replace(view: ConversationView): void;
  appendDeltas(deltas: readonly AgentDelta[]): void;
  clear(): void;
}

export const useConversationStore = create<ConversationState>()((set) => ({
  conversation: undefined,
  replace: (conversation) => set({ conversation }),
  appendDeltas: (deltas) =>
    set((state) => {
      const conversation = appendDeltas(state.conversation, deltas);
      return conversation === state.conversation ? state : { conversation };
    }),
  clear: () => set({ conversation: undefined }),
}));

/** Anything in flight: a request, a stream, a plan waiting or running, a retry. */
export function isAgentBusy(conversation: ConversationView | undefined): boolean {
  return conversation !== undefined && conversation.status !== 'idle';
}

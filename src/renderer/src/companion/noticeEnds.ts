import type { ConversationView } from '../../../shared/agent';
import { useConversationStore } from '../ai/conversationStore';
import { usePanesStore } from '../terminal/panesStore';

/**
 * Pane notices about the agent go when their cause does: "the agent is still working" once it
 * has nothing left in progress, any notice a run makes moot once an auto run starts. A notice
 * that arrives after the agent went idle goes at once.
 */
export function wireNoticeEnds(): void {
  let lastRun = runOf(useConversationStore.getState().conversation);
  useConversationStore.subscribe(({ conversation }) => {
    const run = runOf(conversation);
    if (run !== undefined && run !== lastRun) usePanesStore.getState().endNotices(undefined, 'run-start');
    lastRun = run;
    if (conversation?.status === 'idle') usePanesStore.getState().endNotices(undefined, 'agent-idle');
  });
  usePanesStore.subscribe((panes, before) => {
    if (panes.panes === before.panes || useConversationStore.getState().conversation?.status !== 'idle') return;
    usePanesStore.getState().endNotices(undefined, 'agent-idle');
  });
}

/** The auto run working now, by when it started (a new run is a new start). */
function runOf(conversation: ConversationView | undefined): number | undefined {
  return conversation?.auto?.startedAt;
}

import { offlineAction } from './agentRequests';
import { useConversationStore } from './conversationStore';

/** §14.8: instructions queued because no backend answered, when the next check goes, Retry now and Discard. */
export function OfflineQueueBar() {
  const offline = useConversationStore((state) => state.conversation?.offline);
  if (!offline) return null;
  const count = offline.instructions.length;
  const next = offline.nextCheckAt ? `next check at ${new Date(offline.nextCheckAt).toLocaleTimeString()}` : 'checking now';
  return (
    <div className="ai-offline" data-testid="offline-queue" data-count={count} data-checks={offline.checks} role="status">
      <span className="ai-offline__text" title={offline.instructions.map((instruction) => instruction.text).join('\n')}>
        {count === 1 ? '1 instruction' : `${count} instructions`} queued: no backend answered. It goes out as soon as one does ({next}).
      </span>
      <button type="button" className="button--primary" data-testid="offline-retry" onClick={() => void offlineAction('retry')}>
        Retry now
      </button>
      <button type="button" data-testid="offline-discard" title="Send nothing on its own; Retry on the error card still works" onClick={() => void offlineAction('discard')}>
        Discard
      </button>
    </div>
  );
}

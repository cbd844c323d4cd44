import type { BackendView, FallbackItem } from '../../../shared/conversationView';

function named(view: BackendView): string {
  return `${view.model} (${view.backend}${view.endpoint ? `, ${view.endpoint}` : ''})`;
}

/** The request went to the next `[[ai.fallback]]` backend: which, why, and when the configured one is tried again. */
export function FallbackCard({ item }: { item: FallbackItem }) {
  const fromConfigured = item.from.backend === item.configured.backend && item.from.model === item.configured.model && item.from.endpoint === item.configured.endpoint;
  return (
    <div className="ai-message ai-message--fallback" data-testid="ai-message" data-role="fallback" data-item-id={item.id} role="status">
      <strong className="ai-message__fallback-label">Switched to a fallback</strong>
      <span className="ai-message__text" data-testid="fallback-to">
        Now answering: {named(item.to)}.
      </span>
      <p className="ai-fallback__reason" data-testid="fallback-reason">
        {named(item.from)} could not be reached: {item.reason}
      </p>
      {item.skipped.length > 0 && <p className="ai-fallback__reason">Passed over: {item.skipped.join('; ')}.</p>}
      <p className="ai-fallback__reason">
        {fromConfigured ? 'Requests' : `${named(item.configured)} is configured; requests`} stay on the fallback for {item.holdMinutes} min or until a new conversation,
        then {item.configured.model} is tried first again.
      </p>
    </div>
  );
}

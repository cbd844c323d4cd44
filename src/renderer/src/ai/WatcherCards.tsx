import { ChildAgentCard } from './ChildAgentCard';
import { useWatcherCards, type WatcherCard } from './watcherCardsStore';
import { askNotificationPermission, useNotificationPermission } from '../watchers/webNotifications';
import { answerWatcherStep, dismissWatcherFiring, runWatcherFiring } from './watcherRequests';

/** The watchers that fired (docs/watchers.md "What a firing does"): notify cards and watcher runs, above the input. */
export function WatcherCards() {
  const cards = useWatcherCards((state) => state.cards);
  if (cards.length === 0) return null;
  return (
    <div className="watcher-cards" data-testid="watcher-cards">
      <TurnOnNotifications />
      {cards.map((card) => (
        <WatcherCardView key={card.firingId} card={card} />
      ))}
    </div>
  );
}

/** Browser mode: a link above the first card asks for the Web Notifications permission (a click is the gesture browsers want). */
function TurnOnNotifications() {
  const permission = useNotificationPermission((state) => state.permission);
  if (permission !== 'default') return null;
  return (
    <button type="button" className="watcher-cards__notifications" data-testid="watcher-notifications-on" onClick={() => void askNotificationPermission()}>
      Turn on notifications for watchers
    </button>
  );
}

export function WatcherCardView({ card }: { card: WatcherCard }) {
  const { run } = card;
  const over = run !== undefined && run.state !== 'starting' && run.state !== 'running';
  return (
    <section className="watcher-card" data-testid="watcher-card" data-firing-id={card.firingId} data-action={card.action} aria-label={`Watcher ${card.name}`}>
      <div className="watcher-card__head">
        <span className="watcher-card__title">
          Watcher <em>{card.name}</em> fired: {card.reason}
        </span>
        {!run && !card.waitsForSlot && (
          <button type="button" className="button--primary" data-testid="watcher-run" onClick={() => void runWatcherFiring(card.firingId)}>
            Run
          </button>
        )}
        {(!run || over) && (
          <button type="button" data-testid="watcher-dismiss" onClick={() => void dismissWatcherFiring(card.firingId)}>
            {run ? 'Close' : 'Dismiss'}
          </button>
        )}
        {run && !over && (
          <button type="button" data-testid="watcher-stop" title="Stop the watcher's run" onClick={() => void dismissWatcherFiring(card.firingId)}>
            Stop
          </button>
        )}
      </div>
      {card.waitsForSlot && (
        <p className="watcher-card__waits" data-testid="watcher-waits-for-slot">
          Waits: {card.waitsForSlot.limit} watcher runs are going already. It starts when one ends.
        </p>
      )}
      {run && <ChildAgentCard decide={(requestId, decision, note) => void answerWatcherStep(card.firingId, requestId, decision, note)} spawnStatus="approved" child={run} />}
    </section>
  );
}

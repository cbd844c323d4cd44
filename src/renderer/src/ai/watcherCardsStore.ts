import { create } from 'zustand';
import type { Events } from '../../../shared/protocol';
import type { WatcherCardView } from '../../../shared/watcherRuns';

/** A watcher's firing in the panel: a notify card waiting for Run / Dismiss (or for a free run slot), or its run. */
export type WatcherCard = WatcherCardView;

interface WatcherCardsState {
  cards: WatcherCard[];
  /** The engine's cards, on each (re)connection: the engine keeps them, the panel shows them. */
  replace(cards: WatcherCard[]): void;
  fired(event: Events['watcher.fired']): void;
  runChanged(event: Events['watcher.run']): void;
  waitsForSlot(event: Events['watcher.waits-for-slot']): void;
  remove(firingId: string): void;
}

/** The most watcher cards kept: the oldest go first. */
const MOST_CARDS = 20;

export const useWatcherCards = create<WatcherCardsState>()((set) => ({
  cards: [],
  replace: (cards) => set({ cards: cards.slice(-MOST_CARDS) }),
  fired: ({ firingId, name, action, reason }) => {
    // ask / auto show their card with the run's first view (`watcher.run`).
    if (action !== 'notify') return;
    set(({ cards }) => ({ cards: [...cards, { firingId, name, action, reason }].slice(-MOST_CARDS) }));
  },
  runChanged: ({ firingId, name, action, reason, run }) =>
    set(({ cards }) => {
      if (run === null) return { cards: cards.filter((card) => card.firingId !== firingId) };
      const card: WatcherCard = { firingId, name, action, reason, run };
      return cards.some((old) => old.firingId === firingId) ? { cards: cards.map((old) => (old.firingId === firingId ? card : old)) } : { cards: [...cards, card].slice(-MOST_CARDS) };
    }),
  waitsForSlot: ({ firingId, limit }) => set(({ cards }) => ({ cards: cards.map((card) => (card.firingId === firingId ? { ...card, waitsForSlot: { limit } } : card)) })),
  remove: (firingId) => set(({ cards }) => ({ cards: cards.filter((card) => card.firingId !== firingId) })),
}));

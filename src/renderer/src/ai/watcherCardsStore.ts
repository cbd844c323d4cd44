import { create } from 'zustand';
import type { ChildAgentView } from '../../../shared/agent';
import type { Events } from '../../../shared/protocol';

/** A watcher's firing in the panel: a notify card waiting for Run / Dismiss, or its run. */
export interface WatcherCard {
  firingId: string;
  name: string;
  action: 'notify' | 'ask' | 'auto';
  reason: string;
  run?: ChildAgentView;
}

interface WatcherCardsState {
  cards: WatcherCard[];
  fired(event: Events['watcher.fired']): void;
  runChanged(event: Events['watcher.run']): void;
  remove(firingId: string): void;
}

/** The most watcher cards kept: the oldest go first. */
const MOST_CARDS = 20;

export const useWatcherCards = create<WatcherCardsState>()((set) => ({
  cards: [],
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
  remove: (firingId) => set(({ cards }) => ({ cards: cards.filter((card) => card.firingId !== firingId) })),
}));

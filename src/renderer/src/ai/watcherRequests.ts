import { engine } from '../app/engine';
import { useAiPanelStore } from './aiPanelStore';
import { takeAsNotified } from '../watchers/webNotifications';
import { useWatcherCards } from './watcherCardsStore';

async function attempt(what: string, request: () => Promise<unknown>): Promise<void> {
  try {
    await request();
  } catch (error) {
    useAiPanelStore.getState().setNotice(`${what}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The cards the engine keeps, once per (re)connection: a reload or a second window shows the same cards. */
export async function loadWatcherCards(): Promise<void> {
  try {
    const { cards } = await engine().request('watchers.cards', {});
    takeAsNotified(cards);
    useWatcherCards.getState().replace(cards);
  } catch (error) {
    console.warn('[tandem] watchers.cards failed', error);
  }
}

/** A notify card's Run: the engine starts the watcher's run (its card replaces this one). */
export function runWatcherFiring(firingId: string): Promise<void> {
  return attempt('Could not start the watcher run', () => engine().request('watchers.run', { firingId }));
}

/** Dismiss (a notify card) or Close (a run's card): the card goes, and the engine drops the firing. */
export function dismissWatcherFiring(firingId: string): Promise<void> {
  useWatcherCards.getState().remove(firingId);
  return attempt('Could not dismiss the watcher firing', () => engine().request('watchers.dismiss', { firingId }));
}

export function answerWatcherStep(firingId: string, requestId: string, decision: 'allow' | 'deny', note?: string): Promise<void> {
  return attempt('Could not answer the watcher run', () => engine().request('watchers.answer', { firingId, requestId, decision, note }));
}

import { create } from 'zustand';
import type { Events } from '../../../shared/protocol';
import type { WatcherCardView } from '../../../shared/watcherRuns';

/**
 * Browser mode's desktop notifications for watchers (docs/watchers.md "What a firing does"):
 * the Web Notifications API, once the user has granted it. One notification per notify firing
 * and one per step that waits, never again for the same (a reload's cards are taken as shown).
 * In the desktop app the engine shows native notifications, so nothing is shown from here.
 */

/** The most firings and steps remembered as shown. */
const MOST_REMEMBERED = 500;
const shown = new Set<string>();

export function webNotificationsApply(): boolean {
  return window.tandemElectron === undefined && typeof Notification !== 'undefined';
}

/** The browser's answer so far, so the "Turn on notifications" link goes once it is given. */
export const useNotificationPermission = create<{ permission: NotificationPermission | undefined }>(() => ({
  permission: webNotificationsApply() ? Notification.permission : undefined,
}));

/** Asks for the permission: only from a click (browsers refuse, or remember a refusal, otherwise). */
export async function askNotificationPermission(): Promise<void> {
  if (!webNotificationsApply()) return;
  const permission = await Notification.requestPermission();
  useNotificationPermission.setState({ permission });
}

export function notifyWatcherFired(event: Events['watcher.fired']): void {
  if (event.action === 'notify') show(`fired ${event.firingId}`, `Watcher ${event.name} fired`, event.reason);
}

export function notifyWatcherWaits(event: Events['watcher.run']): void {
  for (const asking of event.run?.asking ?? []) show(`asks ${event.firingId} ${asking.id}`, `Watcher ${event.name} waits for you`, asking.command);
}

/** The cards a (re)connection brought: what they show was notified before, or happened while no window was there. */
export function takeAsNotified(cards: readonly WatcherCardView[]): void {
  for (const card of cards) {
    remember(`fired ${card.firingId}`);
    for (const asking of card.run?.asking ?? []) remember(`asks ${card.firingId} ${asking.id}`);
  }
}

function show(key: string, title: string, body: string): void {
  if (!webNotificationsApply() || shown.has(key)) return;
  remember(key);
  if (Notification.permission !== 'granted') return;
  try {
    new Notification(title, { body, tag: key });
  } catch (error) {
    // Some browsers (Chrome on Android) allow notifications only from a service worker.
    console.warn('[tandem] the notification could not be shown', error);
  }
}

function remember(key: string): void {
  shown.add(key);
  if (shown.size > MOST_REMEMBERED) shown.delete(shown.values().next().value!);
}

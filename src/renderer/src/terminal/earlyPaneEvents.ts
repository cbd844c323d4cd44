import type { PaneEvent } from './applyPaneEvent';

type EarlyEvent = PaneEvent;

const MAX_PER_PANE = 32;
const MAX_PANES = 64;
const held = new Map<number, EarlyEvent[]>();

/**
 * The engine may send a new pane's first events (a notice about a fallback shell, its
 * state) before its answer to pane.create arrives. They wait here until the pane is known.
 */
export function holdEarlyEvent(event: EarlyEvent): void {
  const paneId = event.payload.paneId;
  let events = held.get(paneId);
  if (!events) {
    if (held.size >= MAX_PANES) {
      const oldest = held.keys().next().value;
      if (oldest !== undefined) held.delete(oldest);
    }
    events = [];
    held.set(paneId, events);
  }
  if (events.length < MAX_PER_PANE) events.push(event);
}

export function takeEarlyEvents(paneId: number): EarlyEvent[] {
  const events = held.get(paneId) ?? [];
  held.delete(paneId);
  return events;
}

export function forgetEarlyEvents(): void {
  held.clear();
}

import type { Events } from '../../../shared/protocol';
import { usePanesStore } from './panesStore';

export type PaneEvent =
  | { name: 'pane.state'; payload: Events['pane.state'] }
  | { name: 'pane.notice'; payload: Events['pane.notice'] }
  | { name: 'pane.notice.withdrawn'; payload: Events['pane.notice.withdrawn'] }
  | { name: 'pane.exit'; payload: Events['pane.exit'] }
  /** These two stay in the pane's stream (PaneSession), they change no metadata. */
  | { name: 'pane.skipped'; payload: Events['pane.skipped'] }
  | { name: 'pane.resized'; payload: Events['pane.resized'] };

/** A pane event into the pane's metadata, once the pane's output before it is on screen (PaneSession). */
export function applyPaneEvent(event: PaneEvent): void {
  const panes = usePanesStore.getState();
  switch (event.name) {
    case 'pane.state':
      panes.applyState(event.payload);
      break;
    case 'pane.notice':
      panes.addNotice(event.payload);
      break;
    case 'pane.notice.withdrawn':
      panes.withdrawNotices(event.payload.paneId, event.payload.topic);
      break;
    case 'pane.exit':
      panes.markExited(event.payload);
      break;
  }
}

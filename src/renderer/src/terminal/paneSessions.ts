import type { Terminal } from '@xterm/xterm';
import type { PaneSession } from './PaneSession';

/** Live pane sessions by engine pane id. Not React state: these hold xterm instances. */
const sessions = new Map<number, PaneSession>();
const terminals = new Map<number, Terminal>();
// For tests and the bench: the panes' terminals, and how much of a pane's output was skipped (pane.skipped).
window.__tandem = { terminals, skippedBytes: (paneId) => sessions.get(paneId)?.skippedBytes ?? 0 };

export const paneSessions = {
  get(paneId: number): PaneSession | undefined {
    return sessions.get(paneId);
  },
  add(session: PaneSession): void {
    sessions.set(session.paneId, session);
    terminals.set(session.paneId, session.terminal);
  },
  /** Re-keys a session whose pane id changed (restart). */
  rekey(oldPaneId: number, session: PaneSession): void {
    sessions.delete(oldPaneId);
    terminals.delete(oldPaneId);
    this.add(session);
  },
  remove(paneId: number): PaneSession | undefined {
    const session = sessions.get(paneId);
    sessions.delete(paneId);
    terminals.delete(paneId);
    return session;
  },
  all(): PaneSession[] {
    return [...sessions.values()];
  },
};

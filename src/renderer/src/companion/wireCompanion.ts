import { focusedPaneId, useLayoutStore } from '../layout/layoutStore';
import { usePanesStore } from '../terminal/panesStore';
import type { EngineConnection } from '../transport/engineConnection';
import { useCompanionStore } from './companionStore';
import { wireNoticeEnds } from './noticeEnds';
import { wirePanelActivity } from './panelActivity';

/**
 * Watch mode in the window: hints from the engine into the store; which pane has the
 * keyboard to the engine (its long-pause timer counts only there), and work on a pane in the
 * AI panel; Esc dismissing a hint; pane notices about the agent ending with their cause.
 */
export function wireCompanion(connection: EngineConnection): void {
  connection.on('companion.hint', ({ paneId, hint }) => useCompanionStore.getState().setHint(paneId, hint));

  let reported: number | null | undefined;
  const reportFocus = () => {
    const paneId = document.hasFocus() ? (focusedPaneId() ?? null) : null;
    if (paneId === reported || connection.status !== 'open') return;
    reported = paneId;
    connection.request('pane.focus', { paneId }).catch(() => {
      // Disconnected: reported again once the connection opens.
      reported = undefined;
    });
  };
  useLayoutStore.subscribe(reportFocus);
  window.addEventListener('focus', reportFocus);
  window.addEventListener('blur', reportFocus);
  connection.onStatus((status) => {
    // The engine forgets nothing while the page is away; hello brings its hints back.
    if (status !== 'open') reported = undefined;
    else reportFocus();
  });

  window.addEventListener('keydown', dismissOnEscape, true);
  wireNoticeEnds();
  wirePanelActivity(connection);
}

/**
 * Esc dismisses the focused pane's hint only while that pane's shell is at its prompt, and
 * then the key is used up: passed on as well, readline would take it as the start of an
 * Alt+key and turn the user's next key into an edit command. Any other Esc — no hint, a
 * program running (vim, less, a REPL) — reaches the terminal as always.
 */
function dismissOnEscape(event: KeyboardEvent): void {
  if (event.key !== 'Escape' || event.isComposing || event.ctrlKey || event.altKey || event.metaKey || event.shiftKey) return;
  const paneId = focusedPaneId();
  if (paneId === undefined || !useCompanionStore.getState().hints[paneId]) return;
  if (!(event.target instanceof Element) || !event.target.closest('.xterm')) return;
  if (usePanesStore.getState().panes[paneId]?.state !== 'PROMPT') return;
  useCompanionStore.getState().dismiss(paneId);
  event.preventDefault();
  event.stopPropagation();
}

import { closeQuestion, type CloseScope, type PaneRunning } from '../../../shared/closeQuestion';
import { engine } from '../app/engine';
import { panesOf } from '../layout/layoutTree';
import { useLayoutStore } from '../layout/layoutStore';
import { useSettingsStore } from '../settings/settingsStore';
import { closePane, closeTab, focusActivePane } from '../terminal/paneLifecycle';
import { paneSessions } from '../terminal/paneSessions';
import { useCloseQuestionStore } from './closeQuestionStore';

/**
 * Closing that asks first, as `[terminal] confirm_close` says: the engine names what runs in
 * the panes that would close, and the user answers Cancel (the default) or Close. Panes
 * whose shell has exited close at once: nothing runs in them.
 */
async function mayClose(paneIds: number[], scope: CloseScope): Promise<boolean> {
  const mode = useSettingsStore.getState().settings.terminal.confirm_close;
  const live = paneIds.filter((paneId) => paneSessions.get(paneId)?.hasExited !== true);
  if (mode === 'never' || live.length === 0) return true;
  if (useCloseQuestionStore.getState().question) return false;
  let panes: PaneRunning[];
  try {
    ({ panes } = await engine().request('pane.running', { paneIds: live }));
  } catch {
    // The engine is out of reach: the close will not reach it either, and ends nothing.
    return true;
  }
  const question = closeQuestion(mode, scope, panes);
  if (!question) return true;
  const close = await useCloseQuestionStore.getState().ask(question);
  if (!close) focusActivePane();
  return close;
}

/** Ctrl+Shift+W, the palette's Close Pane, and a dead pane's Close. */
export async function closePaneAsking(paneId: number): Promise<void> {
  if (await mayClose([paneId], 'pane')) closePane(paneId);
}

/** A tab's ×, and the palette's Close Tab: one question for all its panes. */
export async function closeTabAsking(tabId: string): Promise<void> {
  const tab = useLayoutStore.getState().tabs.find((candidate) => candidate.id === tabId);
  if (tab && (await mayClose(panesOf(tab.root), 'tab'))) closeTab(tabId);
}

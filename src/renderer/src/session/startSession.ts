import type { HelloResult, PaneInfo, SessionLayout } from '../../../shared/protocol';
import { engine } from '../app/engine';
import { useLayoutStore, type Tab } from '../layout/layoutStore';
import { paneLeaf, panesOf, pruneLayout } from '../layout/layoutTree';
import { attachPane, discardAllPanes, focusActivePane, openNewTab } from '../terminal/paneLifecycle';
import { applyHello } from './applyHello';
import { restoreSession } from './restoreSession';
import { currentSessionLayout, rememberedLayout } from './sessionLayout';
import { saveSessionNow, setSessionSavingEnabled } from './sessionSaver';

let running: Promise<void> | undefined;
let startAgain = false;

/**
 * Runs on every (re)connection: `hello`, then re-attach live panes (reload or reconnect),
 * else restore the saved session, else open one fresh tab.
 */
export function startSession(): Promise<void> {
  if (running) {
    // A reconnection while starting: finish, then start over on the new connection.
    startAgain = true;
    return running;
  }
  running = runStart().finally(() => {
    running = undefined;
    if (startAgain) {
      startAgain = false;
      void startSession();
    }
  });
  return running;
}

async function runStart(): Promise<void> {
  setSessionSavingEnabled(false);
  const inMemory = useLayoutStore.getState().tabs.length > 0 ? currentSessionLayout() : undefined;
  const previousLayout = inMemory ?? rememberedLayout();
  discardAllPanes();

  let hello: HelloResult;
  try {
    hello = await engine().request('hello', {});
  } catch (error) {
    // The connection dropped again; the next 'open' starts over.
    console.warn('[tandem] hello failed', error);
    return;
  }
  applyHello(hello);

  if (hello.livePanes.length > 0) {
    await reattach(hello.livePanes, previousLayout);
  } else if (hello.restoredSession && hello.settings.session.restore) {
    const { tabs, activeIndex } = await restoreSession(hello.restoredSession);
    if (tabs.length > 0) useLayoutStore.getState().setTabs(tabs, activeIndex);
  }
  if (useLayoutStore.getState().tabs.length === 0) await openNewTab();

  setSessionSavingEnabled(true);
  saveSessionNow(false);
  focusActivePane();
}

async function reattach(livePanes: PaneInfo[], previousLayout: SessionLayout | undefined): Promise<void> {
  const attached = new Set<number>();
  await Promise.all(
    livePanes.map(async (pane) => {
      try {
        attached.add(await attachPane(pane.paneId));
      } catch (error) {
        console.warn(`[tandem] could not re-attach pane ${pane.paneId}`, error);
      }
    }),
  );
  const tabs: Omit<Tab, 'id'>[] = [];
  const placed = new Set<number>();
  for (const saved of previousLayout?.tabs ?? []) {
    const root = pruneLayout(saved.layout, attached);
    if (!root) continue;
    const panes = panesOf(root).filter((paneId) => !placed.has(paneId));
    if (panes.length !== panesOf(root).length) continue;
    panes.forEach((paneId) => placed.add(paneId));
    const focused = saved.focusedPaneId !== undefined && panes.includes(saved.focusedPaneId) ? saved.focusedPaneId : panes[0];
    tabs.push({ root, focusedPaneId: focused ?? -1, restoredTitle: saved.title });
  }
  for (const pane of livePanes) {
    if (attached.has(pane.paneId) && !placed.has(pane.paneId)) {
      tabs.push({ root: paneLeaf(pane.paneId), focusedPaneId: pane.paneId });
    }
  }
  if (tabs.length > 0) useLayoutStore.getState().setTabs(tabs, previousLayout?.activeTab ?? 0);
}

import { usePrivatePanes } from '../history/privateMode';
import type { Params, PaneInfo } from '../../../shared/protocol';
import { useBannerStore } from '../app/bannerStore';
import { engine, inputPriority, paneStreams } from '../app/engine';
import { useUiStore } from '../app/uiStore';
import { useBlocksStore } from '../blocks/blocksStore';
import { containsPane, paneLeaf, panesOf, type SplitDirection } from '../layout/layoutTree';
import { focusedPaneId, useLayoutStore } from '../layout/layoutStore';
import { applyPaneEvent } from './applyPaneEvent';
import { estimatePaneSize } from './initialPaneSize';
import { PaneSession, type PaneSessionHooks, type PaneTransport } from './PaneSession';
import { paneSessions } from './paneSessions';
import { usePanesStore } from './panesStore';
import { currentAppearance } from './terminalAppearance';

const transport: PaneTransport = {
  sendInput: (paneId, data) => engine().sendInput(paneId, data),
  sendAck: (paneId, byteCount) => engine().sendAck(paneId, byteCount),
  resize: (paneId, cols, rows) =>
    engine()
      .request('pane.resize', { paneId, cols, rows })
      .then(
        () => true,
        // The pane closed or the connection dropped; the next fit sends the size again.
        () => false,
      ),
};

const hooks: PaneSessionHooks = {
  onFocus: (paneId) => useLayoutStore.getState().focusPane(paneId),
  onRestartRequested: (paneId) => void restartPane(paneId),
  // An exited pane runs nothing: it closes without asking.
  onCloseRequested: (paneId) => closePane(paneId),
  onUserInput: (paneId) => {
    useBlocksStore.getState().select(paneId, undefined);
    usePanesStore.getState().endNotices(paneId, 'typing');
  },
  onBlock: (block) => {
    useBlocksStore.getState().upsert(block);
    if (block.endedAt === undefined) usePanesStore.getState().endNotices(block.paneId, 'command');
  },
  onBlocksListed: (paneId, blocks) => useBlocksStore.getState().merge(paneId, blocks),
  onPaneEvent: applyPaneEvent,
};

function reportFailure(what: string, error: unknown): void {
  useBannerStore.getState().show({
    key: 'pane-failure',
    level: 'error',
    message: `${what}: ${error instanceof Error ? error.message : String(error)}`,
    dismissible: true,
  });
}

/**
 * Sets up the terminal for a pane the engine just described (created, attached or restored):
 * its snapshot and blocks first, then whatever of its stream arrived meanwhile.
 */
function adoptPane(info: PaneInfo): PaneSession {
  paneSessions.remove(info.paneId)?.dispose();
  const session = new PaneSession(info, transport, hooks, currentAppearance(), inputPriority);
  paneSessions.add(session);
  usePanesStore.getState().addPane(info);
  paneStreams.register(info.paneId, session);
  return session;
}

export async function createPane(params: Params<'pane.create'>): Promise<number> {
  const info = await engine().request('pane.create', params);
  adoptPane(info);
  return info.paneId;
}

export async function attachPane(paneId: number): Promise<number> {
  const info = await engine().request('pane.attach', { paneId });
  adoptPane(info);
  usePrivatePanes.getState().set(paneId, info.private === true);
  return info.paneId;
}

/** Forgets a pane on this side: terminal, metadata, blocks. */
function discardPane(paneId: number): void {
  paneStreams.unregister(paneId);
  paneSessions.remove(paneId)?.dispose();
  usePanesStore.getState().removePane(paneId);
  useBlocksStore.getState().removePane(paneId);
  if (useUiStore.getState().findPaneId === paneId) useUiStore.getState().setFindPane(undefined);
}

export function closePane(paneId: number): void {
  engine()
    .request('pane.close', { paneId })
    .catch(() => {
      // Already gone in the engine, or disconnected: closing here is what matters.
    });
  discardPane(paneId);
  useLayoutStore.getState().removePane(paneId);
  focusActivePane();
}

export function closeTab(tabId: string): void {
  const tab = useLayoutStore.getState().tabs.find((candidate) => candidate.id === tabId);
  if (!tab) return;
  for (const paneId of panesOf(tab.root)) {
    engine()
      .request('pane.close', { paneId })
      .catch(() => undefined);
    discardPane(paneId);
  }
  useLayoutStore.getState().closeTab(tabId);
  focusActivePane();
}

/** Drops every pane on this side (reconnect); the engine keeps them. */
export function discardAllPanes(): void {
  for (const session of paneSessions.all()) discardPane(session.paneId);
  paneStreams.clear();
  usePanesStore.getState().clear();
  useBlocksStore.getState().clear();
  useLayoutStore.getState().clear();
}

function focusedPaneContext(): { size: { cols: number; rows: number }; cwd?: string; paneId?: number } {
  const paneId = focusedPaneId();
  const session = paneId !== undefined ? paneSessions.get(paneId) : undefined;
  const cwd = paneId !== undefined ? usePanesStore.getState().panes[paneId]?.cwd : undefined;
  return { size: session?.dimensions ?? estimatePaneSize(), cwd: cwd || undefined, paneId };
}

/** New tab in the focused pane's directory, as iTerm2 and Warp do; its pane's id, or undefined when it failed (said in a banner). */
export async function openNewTab(): Promise<number | undefined> {
  const context = focusedPaneContext();
  try {
    const paneId = await createPane({ ...context.size, cwd: context.cwd });
    useLayoutStore.getState().addTab(paneLeaf(paneId));
    return paneId;
  } catch (error) {
    reportFailure('Could not open a new tab', error);
    return undefined;
  }
}

export async function splitFocusedPane(direction: SplitDirection): Promise<void> {
  const context = focusedPaneContext();
  if (context.paneId === undefined) {
    await openNewTab();
    return;
  }
  const { cols, rows } = context.size;
  const size =
    direction === 'row'
      ? { cols: Math.max(2, Math.floor((cols - 1) / 2)), rows }
      : { cols, rows: Math.max(1, Math.floor((rows - 1) / 2)) };
  try {
    const newPaneId = await createPane({ ...size, cwd: context.cwd });
    const layout = useLayoutStore.getState();
    if (layout.tabs.some((tab) => containsPane(tab.root, context.paneId ?? -1))) {
      layout.splitPane(context.paneId, direction, newPaneId);
    } else {
      layout.addTab(paneLeaf(newPaneId));
    }
  } catch (error) {
    reportFailure('Could not split the pane', error);
  }
}

const restarting = new Set<number>();

/** A new shell in the same terminal, so the exited shell's scrollback stays above it. */
export async function restartPane(paneId: number): Promise<void> {
  const session = paneSessions.get(paneId);
  const meta = usePanesStore.getState().panes[paneId];
  if (!session || !session.hasExited || restarting.has(paneId)) return;
  restarting.add(paneId);
  try {
    const info = await engine().request('pane.create', {
      ...session.dimensions,
      cwd: meta?.cwd || undefined,
      shell: meta?.shell || undefined,
    });
    engine()
      .request('pane.close', { paneId })
      .catch(() => undefined);
    paneStreams.unregister(paneId);
    usePanesStore.getState().removePane(paneId);
    useBlocksStore.getState().removePane(paneId);
    session.rebind(info);
    paneSessions.rekey(paneId, session);
    usePanesStore.getState().addPane(info);
    paneStreams.register(info.paneId, session);
    useLayoutStore.getState().replacePane(paneId, info.paneId);
    session.focus();
  } catch (error) {
    reportFailure('Could not restart the shell', error);
  } finally {
    restarting.delete(paneId);
  }
}

export function focusActivePane(): void {
  const paneId = focusedPaneId();
  if (paneId !== undefined) paneSessions.get(paneId)?.focus();
}

import { usePanesStore, type PaneMeta } from '../terminal/panesStore';

/** true: at a prompt; false: exited or closed, nothing to type into; undefined: not yet. */
function readiness(pane: PaneMeta | undefined): boolean | undefined {
  if (!pane || pane.exited) return false;
  // A shell without integration never reports its prompt; it reads keys typed ahead when it starts.
  if (pane.state === 'PROMPT' || !pane.integration) return true;
  return undefined;
}

/** Resolves at the pane's first prompt (true), or when it exits or closes first (false). */
export function shellReady(paneId: number): Promise<boolean> {
  const now = readiness(usePanesStore.getState().panes[paneId]);
  if (now !== undefined) return Promise.resolve(now);
  return new Promise((resolve) => {
    const unsubscribe = usePanesStore.subscribe((state) => {
      const ready = readiness(state.panes[paneId]);
      if (ready === undefined) return;
      unsubscribe();
      resolve(ready);
    });
  });
}

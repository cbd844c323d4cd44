import type { WatcherView } from '../../../shared/watchers';
import { engine } from '../app/engine';
import { focusActivePane } from '../terminal/paneLifecycle';
import type { EngineConnection } from '../transport/engineConnection';
import { LatestResponses } from '../history/latestResponses';
import { watcherKey } from './watcherWords';
import { useWatchersList } from './watchersStore';

const latest = new LatestResponses();

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The palette's "Watchers": opens the list (asking the engine afresh), or closes it. */
export function toggleWatchersList(): void {
  if (useWatchersList.getState().open) closeWatchersList();
  else openWatchersList();
}

export function openWatchersList(): void {
  useWatchersList.getState().set({ open: true, error: undefined });
  refreshWatchers();
}

export function closeWatchersList(refocus = true): void {
  latest.dropPending();
  useWatchersList.getState().set({ open: false });
  if (refocus) focusActivePane();
}

/** Asks for the list again; an answer overtaken by a newer request is dropped. */
export function refreshWatchers(): void {
  const ticket = latest.next();
  engine()
    .request('watchers.list', {})
    .then(
      (view) => {
        if (latest.accept(ticket)) useWatchersList.getState().set({ view, error: undefined });
      },
      (error: unknown) => {
        if (latest.accept(ticket)) useWatchersList.getState().set({ error: `The watchers cannot be listed: ${errorText(error)}` });
      },
    );
}

/** The row's switch: the engine switches the watcher (the file stays as it is) and answers with the new list. */
export async function setWatcherEnabled(watcher: WatcherView, enabled: boolean): Promise<void> {
  const key = watcherKey(watcher);
  const { set } = useWatchersList.getState();
  set({ switching: [...useWatchersList.getState().switching, key], error: undefined });
  try {
    const view = await engine().request('watchers.setEnabled', { name: watcher.name, source: watcher.source, file: watcher.file, enabled });
    latest.dropPending();
    set({ view });
  } catch (error) {
    set({ error: `${watcher.name} was not switched ${enabled ? 'on' : 'off'}: ${errorText(error)}` });
  } finally {
    set({ switching: useWatchersList.getState().switching.filter((candidate) => candidate !== key) });
  }
}

/** A firing or a change in the engine refreshes the list while it is open. */
export function wireWatchers(connection: EngineConnection): void {
  const refreshIfOpen = () => {
    if (useWatchersList.getState().open) refreshWatchers();
  };
  connection.on('watcher.fired', refreshIfOpen);
  connection.on('watchers.changed', refreshIfOpen);
}

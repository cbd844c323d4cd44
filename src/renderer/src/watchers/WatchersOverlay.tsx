import { useEffect, useRef, useState } from 'react';
import type { WatchersView } from '../../../shared/watchers';
import { WatcherRow } from './WatcherRow';
import { closeWatchersList, setWatcherEnabled } from './watchersList';
import { useWatchersList } from './watchersStore';
import { fileProblem, filesToMention, watcherKey } from './watcherWords';

/** How often the relative times ("3 min ago", "in 40 s") are brought up to date while the list is open. */
const CLOCK_TICK_MS = 10_000;

function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), CLOCK_TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return now;
}

interface ListProps {
  view: WatchersView | undefined;
  error: string | undefined;
  switching: readonly string[];
  now: number;
}

/** The list's content: file troubles first, then each watcher; what to do when there is none. */
export function WatchersListBody({ view, error, switching, now }: ListProps) {
  const userFile = view?.files.find((file) => file.source === 'user')?.path ?? '~/.config/tandem/watchers.toml';
  return (
    <>
      {error && (
        <div className="watchers-list__error" role="alert" data-testid="watchers-error">
          {error}
        </div>
      )}
      {view?.files.length === 0 && <div className="watchers-list__empty">This Tandem follows no watchers.toml.</div>}
      {view &&
        filesToMention(view).map((file) => (
          <div key={file.path} className="watchers-list__file" data-testid="watchers-file-problem">
            <code>{file.path}</code> {fileProblem(file)}
          </div>
        ))}
      {view === undefined && !error ? (
        <div className="watchers-list__empty">Asking the engine…</div>
      ) : view && view.watchers.length === 0 && view.files.length > 0 ? (
        <div className="watchers-list__empty" data-testid="watchers-empty">
          No watchers. Write them in <code>{userFile}</code> or a project&apos;s <code>.tandem/watchers.toml</code> (see docs/watchers.md).
        </div>
      ) : (
        <ul className="watchers-list__rows">
          {view?.watchers.map((watcher) => (
            <WatcherRow
              key={watcherKey(watcher)}
              watcher={watcher}
              now={now}
              switching={switching.includes(watcherKey(watcher))}
              onSwitch={(enabled) => void setWatcherEnabled(watcher, enabled)}
            />
          ))}
        </ul>
      )}
    </>
  );
}

/** The palette's "Watchers": every watcher in effect with its switch and state; Esc closes. */
export function WatchersOverlay() {
  const { view, error, switching } = useWatchersList();
  const now = useNow();
  const dialogRef = useRef<HTMLDivElement>(null);
  useEffect(() => dialogRef.current?.focus(), []);
  // Esc closes it wherever the focus is (a click on the list can leave it on the page itself).
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.isComposing) return;
      event.preventDefault();
      event.stopPropagation();
      closeWatchersList();
    };
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, []);

  return (
    <div className="overlay" onMouseDown={() => closeWatchersList()}>
      <div
        ref={dialogRef}
        tabIndex={-1}
        className="watchers-list"
        data-testid="watchers-list"
        role="dialog"
        aria-label="Watchers"
        onMouseDown={(event) => event.stopPropagation()}
      >
        <div className="watchers-list__title">Watchers</div>
        <div className="watchers-list__body">
          <WatchersListBody view={view} error={error} switching={switching} now={now} />
        </div>
      </div>
    </div>
  );
}

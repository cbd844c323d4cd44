import type { WatcherSource } from '../../shared/watchers';
import type { WatcherConfig } from './watcherSchema';

/**
 * A watcher fired: what the next step (notify card, ask run, auto run: docs/watchers.md) is
 * handed. Its run is live until the promise `onFiring` returned settles; meanwhile the
 * watcher's next firing waits (one run per watcher at a time).
 */
export interface WatcherFiring {
  watcher: WatcherConfig;
  source: WatcherSource;
  /** The folder the watcher works in: its `cwd` resolved, or its file's project (the home folder for the user file). */
  cwd: string;
  /** Why it fired, for the user: "src/a.ts changed", "`npm test` exited 1 in pane 2". */
  reason: string;
  /** What the model is told about why (scrubbed of secrets): the changed paths, the block and its output's end. */
  details: string;
  /** Epoch ms. */
  at: number;
}

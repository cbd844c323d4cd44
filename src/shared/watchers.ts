import { z } from 'zod';

/**
 * What the engine says about watchers (docs/watchers.md): the views the CLI prints and the
 * panel lists, and the panel's requests. The file format itself is validated in
 * src/main/watchers/watcherSchema.ts.
 */

export type WatcherSource = 'user' | 'project';

/** Why a firing waits instead of going now. */
export type WatcherHold =
  /** A run of this watcher is still going: one firing waits for it (the latest reason). */
  | { kind: 'running'; since: number }
  /** `max_runs_per_hour` firings in the last hour: the next may go at `until`. */
  | { kind: 'rate'; until: number; limit: number }
  /** As many watcher runs as Tandem allows at once are going: it waits for one to end. */
  | { kind: 'busy'; limit: number };

export interface WatcherView {
  name: string;
  source: WatcherSource;
  /** The watchers.toml it comes from. */
  file: string;
  trigger: 'file_change' | 'block' | 'schedule' | 'screen_change' | 'voice';
  /** The trigger in words: `src/**\/*.ts in ~/proj`, `cron 0 9 * * 1-5`, `phrase "deploy"`. */
  summary: string;
  action: 'notify' | 'ask' | 'auto';
  instruction: string;
  enabled: boolean;
  /** Why the trigger is not watching although enabled (screen_change not built yet, a folder that does not exist …). */
  inactive?: string;
  lastFired?: { at: number; reason: string };
  /** A schedule's next run (epoch ms). */
  nextRun?: number;
  held?: WatcherHold;
}

/** A watchers.toml as the engine sees it. */
export interface WatchersFileView {
  path: string;
  source: WatcherSource;
  /** Why it cannot be used (with line and column); the watchers it had before stay in effect. */
  error?: string;
  /** A project file not allowed (or changed since it was): its watchers do nothing. */
  untrusted?: boolean;
}

export interface WatchersView {
  files: WatchersFileView[];
  watchers: WatcherView[];
}

export const WatchersRequestSchemas = {
  /** The watchers in effect, their files and state. */
  'watchers.list': z.object({}).strict(),
  /**
   * Switches a watcher on or off until the engine ends (the file is not changed). `file`
   * tells apart watchers of the same name in two project files.
   */
  'watchers.setEnabled': z
    .object({ name: z.string().min(1).max(200), source: z.enum(['user', 'project']), file: z.string().min(1).max(4096).optional(), enabled: z.boolean() })
    .strict(),
} as const;

export interface WatchersResults {
  'watchers.list': WatchersView;
  'watchers.setEnabled': WatchersView;
}

/** A firing, as the window is told of it. */
export interface WatcherFiredEvent {
  /** Names this firing in `watchers.run` / `watchers.dismiss` and its `watcher.run` card. */
  firingId: string;
  name: string;
  source: WatcherSource;
  action: 'notify' | 'ask' | 'auto';
  reason: string;
  at: number;
}

/** The sentence a hold is shown as: `held: 6 runs an hour reached, next possible 14:32`. */
export function describeHold(hold: WatcherHold, time: (epochMs: number) => string): string {
  switch (hold.kind) {
    case 'running':
      return 'held: its previous run is still going; one firing waits for it';
    case 'rate':
      return `held: ${hold.limit} runs an hour reached, next possible ${time(hold.until)}`;
    case 'busy':
      return `held: ${hold.limit} watcher runs are going (the most at once); it waits for one to end`;
  }
}

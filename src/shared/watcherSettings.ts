import { z } from 'zod';
import { durationMs } from './duration';

/** The longest `wait_limit`: a week. */
const MOST_WAIT_MS = 7 * 24 * 3_600_000;

/**
 * `[watchers]` in config.toml (docs/watchers.md "What a firing does"). Declared apart from
 * settings.ts, which gathers it.
 */
export const watcherFields = {
  /** How long a step of a watcher run waits for an answer before it is denied and the run ends: "30s", "10m", "1h". */
  wait_limit: z.string().refine((text) => {
    const ms = durationMs(text);
    return ms !== undefined && ms >= 1_000 && ms <= MOST_WAIT_MS;
  }, 'a duration from "1s" to "168h", such as "30s", "10m" or "1h"'),
};

export const WatchersSection = z.object(watcherFields).strict();

export const DEFAULT_WATCHER_SETTINGS: z.infer<typeof WatchersSection> = { wait_limit: '1h' };

import { readFileSync } from 'node:fs';
import { parse } from 'smol-toml';
import { lineOfArrayTableKey, lineOfKey } from '../settings/tomlInPlace';
import { describeIssues, describeTomlError } from '../settings/validationMessages';
import { WatchersFileSchema, type WatcherConfig } from './watcherSchema';

/** One watchers.toml as read now. */
export type WatchersFileRead =
  | { kind: 'missing' }
  | { kind: 'valid'; watchers: WatcherConfig[]; text: string }
  /** Why the file cannot be used, with the key's line (`[[watcher]] #2, cron (line 9): …`); the file's name is not in it. */
  | { kind: 'invalid'; error: string; text?: string };

export function readWatchersFile(path: string): WatchersFileRead {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'invalid', error: `it could not be read: ${(error as Error).message}` };
  }
  return parseWatchers(text);
}

export function parseWatchers(text: string): WatchersFileRead {
  let parsed: Record<string, unknown>;
  try {
    parsed = parse(text);
  } catch (error) {
    return { kind: 'invalid', error: describeTomlError(error, text), text };
  }
  const result = WatchersFileSchema.safeParse(parsed);
  if (!result.success) {
    const error = describeIssues(result.error, {
      lineOf: (table, key) => lineOfKey(text, table, key),
      lineOfArrayTableKey: (path, index, key) => lineOfArrayTableKey(text, path, index, key),
    });
    return { kind: 'invalid', error, text };
  }
  return { kind: 'valid', watchers: result.data.watcher, text };
}

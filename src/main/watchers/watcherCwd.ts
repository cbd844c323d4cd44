import { isAbsolute, join, resolve } from 'node:path';
import type { WatcherConfig } from './watcherSchema';

/**
 * The folder a watcher works in: its `cwd` (`~` is the home folder; a relative path is read
 * from the file's folder: the project, or the home folder for the user's file), or else
 * that folder itself.
 */
export function watcherCwd(watcher: Pick<WatcherConfig, 'cwd'>, fileRoot: string, home: string): string {
  const cwd = watcher.cwd;
  if (cwd === undefined) return fileRoot;
  if (cwd === '~' || cwd.startsWith('~/')) return join(home, cwd.slice(1));
  return isAbsolute(cwd) ? resolve(cwd) : resolve(fileRoot, cwd);
}

import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Where a project keeps its watchers, relative to the project folder. */
export const PROJECT_WATCHERS_FILE = join('.tandem', 'watchers.toml');

/**
 * The project a working directory belongs to: the nearest folder at or above it that has
 * `.tandem/watchers.toml` or is a git work tree's top, not going above the home folder. A
 * directory in no project (or the home folder itself) has none.
 */
export function projectFolderOf(cwd: string, home: string): string | undefined {
  for (let dir = cwd; dir !== home; dir = dirname(dir)) {
    if (existsSync(join(dir, PROJECT_WATCHERS_FILE)) || existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
  return undefined;
}

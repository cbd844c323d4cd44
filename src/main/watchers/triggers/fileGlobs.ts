import { isAbsolute, join, sep } from 'node:path';
import picomatch from 'picomatch';

/** A glob as an absolute pattern: `~/x` from home, `$CWD/x` and `x` from the watcher's folder. */
export function absoluteGlob(glob: string, root: string, home: string): string {
  if (glob === '~' || glob.startsWith('~/')) return join(home, glob.slice(1));
  if (glob.startsWith('$CWD/')) return join(root, glob.slice('$CWD/'.length));
  return isAbsolute(glob) ? glob : join(root, glob);
}

/** The folders to subscribe to for these globs: each glob's static base, none inside another. */
export function watchedFolders(globs: readonly string[]): string[] {
  const bases = [...new Set(globs.map((glob) => picomatch.scan(glob).base || sep))].sort();
  return bases.filter((base) => !bases.some((other) => other !== base && (base + sep).startsWith(other.endsWith(sep) ? other : other + sep)));
}

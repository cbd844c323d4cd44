import { posix } from 'node:path';
import picomatch from 'picomatch';

/**
 * Filesystem globs of policy.toml (`$CWD/**`, `$HOME/.ssh/**`, `~/.gnupg/**`), matched with
 * picomatch against absolute paths. `$CWD` is the directory the command runs in. A glob that
 * names a directory (`$HOME/.ssh`) also covers everything inside it.
 */
export interface GlobContext {
  cwd: string;
  home: string;
}

export function expandGlob(glob: string, context: GlobContext): string {
  // The home and cwd are literal paths: a folder named `My Project (copy)` must not turn into a pattern group.
  const home = escapeGlob(context.home);
  const cwd = escapeGlob(context.cwd);
  const expanded = glob
    .trim()
    .replace(/^~(?=\/|$)/, () => home)
    .replace(/\$\{?HOME\}?/g, () => home)
    .replace(/\$\{?CWD\}?/g, () => cwd);
  return expanded.startsWith('/') ? expanded : posix.join(cwd, expanded);
}

function escapeGlob(path: string): string {
  return path.replace(/[\\*?[\]{}()!@+|^$]/g, '\\$&');
}

/** The first glob covering the path (absolute, or with `~`, or relative to the cwd). */
export function matchingGlob(globs: readonly string[] | undefined, path: string, context: GlobContext): string | undefined {
  if (!globs || globs.length === 0) return undefined;
  const absolute = absolutePath(path, context);
  return globs.find((glob) => {
    const expanded = expandGlob(glob, context);
    const options = { dot: true };
    return picomatch.isMatch(absolute, expanded, options) || picomatch.isMatch(absolute, `${expanded.replace(/\/+$/, '')}/**`, options);
  });
}

export function absolutePath(path: string, context: GlobContext): string {
  const expanded = path.replace(/^~(?=\/|$)/, context.home).replace(/^\$\{?HOME\}?(?=\/|$)/, context.home);
  return posix.resolve(context.cwd, expanded);
}

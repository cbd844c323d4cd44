import { isAbsolute } from 'node:path';

/**
 * What the app's launcher and Electron changed in the environment Tandem started with, taken
 * back out, so the shells in its panes get the environment of the user's session.
 *
 * - An AppImage: its runtime sets `APPDIR` (the mount, e.g. /tmp/.mount_TandemXXXXXX),
 *   `APPIMAGE`, `ARGV0` and `OWD`, and its AppRun puts directories inside `APPDIR` in front of
 *   `PATH`, `LD_LIBRARY_PATH`, `XDG_DATA_DIRS`, `GSETTINGS_SCHEMA_DIR` (electron-builder's;
 *   AppImageKit's also `PYTHONPATH`, `PYTHONHOME`, `PERLLIB`, `QT_PLUGIN_PATH`,
 *   `GST_PLUGIN_SYSTEM_PATH`...). Every `:`-separated entry inside `APPDIR` is removed, from
 *   any variable, keeping the other entries in their order; a variable left with nothing is
 *   dropped (the launcher made it). electron-builder's AppRun also appends
 *   `/usr/share/gnome:/usr/local/share/:/usr/share/` to `XDG_DATA_DIRS` (older versions
 *   prepended `./share/` and those three): removed too when its AppRun is recognised.
 * - A snap: entries inside `$SNAP` (/snap/<name>/<revision>) go the same way, and `SNAP` and
 *   `SNAP_*` are dropped.
 * - Electron on Linux may change `XDG_CURRENT_DESKTOP` (to "Unity" on Ubuntu) and keeps what
 *   it was in `ORIGINAL_XDG_CURRENT_DESKTOP` ("undefined" when it was not set).
 *
 * Only a plausible launcher is undone: `APPDIR` counts only with `APPIMAGE` beside it, and
 * neither it nor `$SNAP` may hold the system's or the user's own directories.
 */
export function withoutLauncherChanges(base: Readonly<Record<string, string>>): Record<string, string> {
  const env = { ...base };
  restoreDesktopName(env);
  const dataDirsAsLaunched = env.XDG_DATA_DIRS;

  const roots: string[] = [];
  const launcherNames = new Set<string>();
  const appDir = env.APPIMAGE !== undefined ? plausibleRoot(env.APPDIR, env) : undefined;
  // electron-builder's AppRun (old and new) puts $APPDIR itself first in PATH; others do not.
  const appRunByElectronBuilder = appDir !== undefined && withoutTrailingSlashes((env.PATH ?? '').split(':')[0]!) === appDir;
  if (appDir !== undefined) {
    roots.push(appDir);
    for (const name of APPIMAGE_RUNTIME_NAMES) launcherNames.add(name);
  }
  const snap = plausibleRoot(env.SNAP, env);
  if (snap !== undefined && env.SNAP_NAME && /^\/snap\/[^/]+\/[^/]+$/.test(snap)) {
    roots.push(snap);
    for (const name of Object.keys(env)) if (name === 'SNAP' || name.startsWith('SNAP_')) launcherNames.add(name);
  }
  for (const name of launcherNames) delete env[name];
  if (roots.length === 0) return env;

  for (const [name, value] of Object.entries(env)) {
    if (!roots.some((root) => value.includes(root))) continue;
    const entries = value.split(':');
    const kept = entries.filter((entry) => !roots.some((root) => isInside(entry, root)));
    if (kept.length === entries.length) continue;
    setList(env, name, kept);
  }
  if (appDir !== undefined && appRunByElectronBuilder && dataDirsAsLaunched !== undefined && env.XDG_DATA_DIRS !== undefined) {
    const newer = isInside(dataDirsAsLaunched.split(':')[0]!, appDir);
    setList(env, 'XDG_DATA_DIRS', withoutElectronBuilderDataDirs(env.XDG_DATA_DIRS.split(':'), newer));
  }
  return env;
}

/** Set by the AppImage runtime (type 2) for the program inside. */
const APPIMAGE_RUNTIME_NAMES = ['APPDIR', 'APPIMAGE', 'ARGV0', 'OWD'];

/** What electron-builder's AppRun adds to XDG_DATA_DIRS besides $APPDIR/usr/share/. */
const ELECTRON_BUILDER_DATA_DIRS = ['/usr/share/gnome', '/usr/local/share/', '/usr/share/'];

/** Directories a launcher's own directory can never contain. */
const SYSTEM_DIRS = ['/bin', '/usr/bin', '/usr/local/bin', '/etc'];

function restoreDesktopName(env: Record<string, string>): void {
  const original = env.ORIGINAL_XDG_CURRENT_DESKTOP;
  if (original === undefined) return;
  delete env.ORIGINAL_XDG_CURRENT_DESKTOP;
  // Electron stores the value with JavaScript's String(), so an unset one reads "undefined".
  if (original === 'undefined') delete env.XDG_CURRENT_DESKTOP;
  else env.XDG_CURRENT_DESKTOP = original;
}

/** `dir` without trailing slashes, if it is absolute and holds neither system directories nor HOME. */
function plausibleRoot(dir: string | undefined, env: Record<string, string>): string | undefined {
  if (!dir || !isAbsolute(dir)) return undefined;
  const root = withoutTrailingSlashes(dir);
  if (root === '') return undefined;
  const own = [...SYSTEM_DIRS, ...(env.HOME ? [env.HOME] : [])];
  return own.some((path) => isInside(path, root)) ? undefined : root;
}

function withoutTrailingSlashes(path: string): string {
  return path.replace(/\/+$/, '');
}

function isInside(path: string, root: string): boolean {
  return path === root || path.startsWith(`${root}/`);
}

/** A list with the launcher's entries gone: nothing but empty entries left means the launcher made it. */
function setList(env: Record<string, string>, name: string, entries: string[]): void {
  if (entries.every((entry) => entry === '')) delete env[name];
  else env[name] = entries.join(':');
}

/**
 * XDG_DATA_DIRS without what electron-builder's AppRun added around the session's own (its
 * $APPDIR/usr/share/ is gone already). It adds exactly once, so the session's own value may
 * hold the same directories (Debian's GNOME sets just these three) and keeps them.
 */
function withoutElectronBuilderDataDirs(entries: string[], newer: boolean): string[] {
  const added = ELECTRON_BUILDER_DATA_DIRS;
  if (newer) {
    // Today's AppRun: $APPDIR/usr/share/, the session's, then these three.
    const start = entries.length - added.length;
    return start >= 0 && added.every((dir, i) => entries[start + i] === dir) ? entries.slice(0, start) : entries;
  }
  // Older ones (app-builder's template): ./share/ and these three, then the session's.
  const olderAdded = ['./share/', ...added];
  return olderAdded.every((dir, i) => entries[i] === dir) ? entries.slice(olderAdded.length) : entries;
}

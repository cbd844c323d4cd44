import { existsSync, readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import picomatch from 'picomatch';
import { absoluteGlob, watchedFolders } from './fileGlobs';
import type { TriggerEvent } from '../firing/firingGate';
import { gitIgnored } from './gitIgnored';

/** Folders whose changes never fire a watcher (nor are watched: parcel skips them natively). */
const NEVER_WATCHED = ['.git', 'node_modules'];
/** How many changed paths a firing names. */
const PATHS_NAMED = 20;

export interface FileTrigger {
  dispose(): Promise<void>;
}

export interface FileTriggerRule {
  globs: readonly string[];
  /** The folder relative globs are read from (the watcher's cwd). */
  root: string;
  home: string;
  /** A change a watcher run made (its folder while it runs and just after): fires nothing. */
  ownWrite?(path: string): boolean;
}

/**
 * A file_change watcher's trigger: @parcel/watcher (one inotify watch a folder, not a file)
 * on each glob's base folder; a change fires when its path matches a glob and is not under
 * `.git/` or `node_modules/` or ignored by git. Creates, edits and deletes count alike.
 * Throws (with a sentence) when a watched folder does not exist.
 */
export async function startFileTrigger(rule: FileTriggerRule, emit: (event: TriggerEvent) => void): Promise<FileTrigger> {
  const globs = rule.globs.map((glob) => absoluteGlob(glob, rule.root, rule.home));
  const matches = picomatch(globs, { dot: true });
  const folders = watchedFolders(globs);
  for (const folder of folders) if (!existsSync(folder)) throw new Error(`${folder} does not exist`);
  // Loaded here, not with the engine: a native module that only file_change triggers use.
  const { default: watcher } = await import('@parcel/watcher');
  const subscriptions = await Promise.all(
    folders.map((folder) =>
      watcher.subscribe(
        folder,
        (error, events) => {
          if (error) return;
          const paths = [...new Set(events.flatMap(changedFiles))].filter((path) => matches(path) && !underNeverWatched(path) && !rule.ownWrite?.(path));
          if (paths.length > 0) void notIgnored(folder, paths).then((kept) => kept.length > 0 && emit(fileEvent(kept.map((path) => shown(path, rule.root)))));
        },
        { ignore: [...NEVER_WATCHED, ...NEVER_WATCHED.map((name) => `**/${name}`)] },
      ),
    ),
  );
  return { dispose: async () => void (await Promise.all(subscriptions.map((subscription) => subscription.unsubscribe()))) };
}

/** How many files of a newly made folder are looked for. */
const NEW_FOLDER_FILES = 1_000;

/**
 * The files an event stands for. A new folder stands for the files in it: they may have been
 * written before inotify watched the folder (`mkdir -p a/b && echo > a/b/c`), and then no
 * event names them.
 */
function changedFiles(event: { path: string; type: string }): string[] {
  if (event.type !== 'create' || !isFolder(event.path)) return [event.path];
  const files: string[] = [];
  const walk = (folder: string) => {
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (files.length >= NEW_FOLDER_FILES || NEVER_WATCHED.includes(entry.name)) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.push(path);
    }
  };
  walk(event.path);
  return files;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

async function notIgnored(folder: string, paths: string[]): Promise<string[]> {
  const ignored = await gitIgnored(folder, paths);
  return paths.filter((path) => !ignored.has(path));
}

function underNeverWatched(path: string): boolean {
  return path.split(sep).some((part) => NEVER_WATCHED.includes(part));
}

/** A path as the user reads it: relative to the watcher's folder when inside it. */
function shown(path: string, root: string): string {
  const inside = relative(root, path);
  return inside && !inside.startsWith('..') && !isAbsolute(inside) ? inside : path;
}

function fileEvent(paths: readonly string[]): TriggerEvent {
  return { reason: describeChanged(paths), details: paths.join('\n') };
}

/** File events that waited together: every changed path once. */
export function combineFileEvents(events: readonly TriggerEvent[]): TriggerEvent {
  const paths = [...new Set(events.flatMap((event) => event.details.split('\n')).filter(Boolean))];
  return fileEvent(paths);
}

function describeChanged(paths: readonly string[]): string {
  const named = paths.slice(0, PATHS_NAMED).join(', ');
  const more = paths.length > PATHS_NAMED ? ` and ${paths.length - PATHS_NAMED} more` : '';
  return paths.length === 1 ? `${named} changed` : `${paths.length} files changed: ${named}${more}`;
}

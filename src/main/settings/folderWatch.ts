import { statSync, watch, type FSWatcher } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Watches a folder that may not exist yet, or may be deleted and made again (the config
 * folder: Settings creates it on the first save, a dotfile manager may replace it). Until
 * the folder exists, its nearest existing parent is watched; once the folder appears it is
 * watched itself, and `changed` hears about every change in it. When the folder appears or
 * is replaced, `changed` is called with no file name: anything in it may be new.
 */
export class FolderWatch {
  private watcher: FSWatcher | undefined;
  /** The path watched now and its inode, so a deleted-and-made-again folder is noticed. */
  private watched: { path: string; inode: number } | undefined;
  private disposed = false;

  constructor(
    private readonly folder: string,
    private readonly changed: (file: string | undefined) => void,
  ) {
    this.rewatch(false);
  }

  dispose(): void {
    this.disposed = true;
    this.watcher?.close();
    this.watcher = undefined;
  }

  /** Watches the folder, or its nearest existing parent; tells `changed` when the folder itself is newly watched. */
  private rewatch(announce: boolean): void {
    // Between finding the nearest existing path and watching it, a folder below it may have
    // been made; look again until what is watched is still the nearest.
    for (let attempt = 0; attempt < 20 && !this.disposed; attempt++) {
      const nearest = nearestExisting(this.folder);
      if (this.watched && this.watcher && this.watched.path === nearest.path && this.watched.inode === nearest.inode) return;
      this.watcher?.close();
      this.watcher = undefined;
      this.watched = nearest;
      try {
        const path = nearest.path;
        this.watcher = watch(path, (_event, file) => this.onEvent(path, file === null ? undefined : String(file)));
        this.watcher.on('error', () => this.onWatchError(path));
      } catch {
        // Gone again (or not readable): the next look finds what exists now.
        this.watcher = undefined;
        continue;
      }
      if (nearest.path === this.folder && announce) this.changed(undefined);
      announce = true;
    }
  }

  private onEvent(path: string, file: string | undefined): void {
    if (this.disposed) return;
    if (path !== this.folder || !this.stillWatched()) {
      // A parent changed (has the folder appeared?), or the folder was deleted or replaced.
      this.rewatch(true);
      if (path === this.folder && this.watched?.path !== this.folder) this.changed(undefined);
      return;
    }
    this.changed(file);
  }

  private onWatchError(path: string): void {
    if (this.disposed || this.watched?.path !== path) return;
    this.watcher?.close();
    this.watcher = undefined;
    this.rewatch(true);
  }

  /** The watched path is still the same folder (not deleted, not replaced by another). */
  private stillWatched(): boolean {
    const now = inodeOf(this.folder);
    return now !== undefined && now === this.watched?.inode;
  }
}

function inodeOf(path: string): number | undefined {
  try {
    const stat = statSync(path);
    return stat.isDirectory() ? stat.ino : undefined;
  } catch {
    return undefined;
  }
}

function nearestExisting(folder: string): { path: string; inode: number } {
  let path = folder;
  for (;;) {
    const inode = inodeOf(path);
    if (inode !== undefined) return { path, inode };
    const parent = dirname(path);
    if (parent === path) return { path, inode: -1 };
    path = parent;
  }
}

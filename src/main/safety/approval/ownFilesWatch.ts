import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Size, mtime and inode of every file under the watched places (two levels deep), by path. */
export type OwnFilesSnapshot = ReadonlyMap<string, string>;

/**
 * The second line of defence for Tandem's own files: the gate refuses commands it can see
 * writing there, and this notices when a step changed them anyway (an interpreter, a
 * script). The places are the config dir (config, policy, hooks) and the system policy; the
 * audit log has its own hash chain.
 */
export class OwnFilesWatch {
  constructor(private readonly places: readonly string[]) {}

  snapshot(): OwnFilesSnapshot {
    const stamps = new Map<string, string>();
    for (const place of this.places) stampTree(place, stamps, 2);
    return stamps;
  }

  /** Paths created, changed or removed since `before`. */
  changedSince(before: OwnFilesSnapshot): string[] {
    const now = this.snapshot();
    const changed = new Set<string>();
    for (const [path, stamp] of now) if (before.get(path) !== stamp) changed.add(path);
    for (const path of before.keys()) if (!now.has(path)) changed.add(path);
    return [...changed].sort();
  }
}

function stampTree(path: string, stamps: Map<string, string>, depth: number): void {
  let stat;
  try {
    // A place that does not exist (no system policy) is the usual case: no exception to build for it.
    stat = statSync(path, { throwIfNoEntry: false });
  } catch {
    return;
  }
  if (!stat) return;
  if (!stat.isDirectory()) {
    stamps.set(path, `${stat.size}:${stat.mtimeMs}:${stat.ino}:${stat.mode}`);
    return;
  }
  if (depth === 0) return;
  let names: string[];
  try {
    names = readdirSync(path);
  } catch {
    return;
  }
  for (const name of names) stampTree(join(path, name), stamps, depth - 1);
}

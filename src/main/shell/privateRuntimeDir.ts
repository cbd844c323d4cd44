import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/**
 * A fresh directory only this user can enter, for the small files a shell reads while it runs
 * (the integration's bootstrap, a plan step's environment file). In memory where the system
 * has a place for it: `$XDG_RUNTIME_DIR` (systemd's per-user tmpfs), else `/dev/shm`, else
 * the temp directory. On a disk file system (Debian's `/tmp` is ext4) emptying a step's
 * environment file cost the shell 0.2 ms right when the step starts (docs/architecture.md,
 * "Who holds the CPU in a slow approval"); on tmpfs it is about 0.015 ms. `fill` puts the
 * caller's files in; a place where that fails is passed over.
 */
export function privateRuntimeDir({ fill, env = process.env }: { fill?: (dir: string) => void; env?: NodeJS.ProcessEnv } = {}): string {
  const problems: string[] = [];
  for (const parent of candidates(env)) {
    let dir: string | undefined;
    try {
      dir = mkdtempSync(join(parent, 'tandem-'));
      chmodSync(dir, 0o700);
      // What the caller needs there goes in before the place is taken: a full /dev/shm (a
      // container's 64 MB) makes a directory but no file, and the next place will do.
      fill?.(dir);
      return dir;
    } catch (error) {
      if (dir) rmSync(dir, { recursive: true, force: true });
      problems.push(`${parent}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  throw new Error(`no place for the shell's integration files (${problems.join('; ')})`);
}

function candidates(env: NodeJS.ProcessEnv): string[] {
  const places: string[] = [];
  const runtime = env.XDG_RUNTIME_DIR;
  if (runtime && isAbsolute(runtime) && isPrivateDirectory(runtime)) places.push(runtime);
  if (process.platform === 'linux') places.push('/dev/shm');
  places.push(tmpdir());
  return places;
}

/** The runtime directory is meant to be the user's alone (0700); one that is not is passed over. */
function isPrivateDirectory(path: string): boolean {
  try {
    const stat = statSync(path);
    return stat.isDirectory() && (stat.mode & 0o077) === 0 && (typeof process.getuid !== 'function' || stat.uid === process.getuid());
  } catch {
    return false;
  }
}

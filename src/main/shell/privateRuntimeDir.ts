import { chmodSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/**
 * A fresh directory only this user can enter, for the small files a shell reads while it runs
 * (the integration's bootstrap, a plan step's environment file). In memory where the system
 * has a place for it: `$XDG_RUNTIME_DIR` (systemd's per-user tmpfs), else `/dev/shm`, else
 * the temp directory. On a disk file system (Debian's `/tmp` is ext4) rewriting a step's
 * environment file cost the engine 0.25 ms and emptying it cost the shell as much, both
 * right when a step starts (docs/architecture.md, "Who holds the CPU in a slow approval");
 * on tmpfs each is about 0.015 ms.
 */
export function privateRuntimeDir(env: NodeJS.ProcessEnv = process.env): string {
  for (const parent of candidates(env)) {
    try {
      const dir = mkdtempSync(join(parent, 'tandem-'));
      chmodSync(dir, 0o700);
      return dir;
    } catch {
      // Not there or not ours to write: the next place will do.
    }
  }
  throw new Error(`no place for Tandem's shell files: ${candidates(env).join(', ')} cannot be written`);
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

import { randomBytes } from 'node:crypto';
import { link, mkdir, open, readFile, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A lock shared by every process that appends to the audit log (the app, `tandem web`,
 * `tandem agent` runs): a file created with O_EXCL that names its holder. Node has no flock,
 * and an O_EXCL create is atomic on every local file system. A lock whose holder died (its pid
 * is gone on this host) or that is older than `staleMs` is broken, so a crash never blocks the
 * log for good; waiting is bounded by `maxWaitMs`.
 */
export interface FileLockOptions {
  maxWaitMs?: number;
  staleMs?: number;
}

export interface FileLock {
  /** Removes the lock file if it is still this lock's (a holder judged stale may have lost it). */
  release(): Promise<void>;
}

/** The lock could not be taken in time, or not at all; the caller decides whether to go on without it. */
export class FileLockNotTaken extends Error {}

const DEFAULT_MAX_WAIT_MS = 5_000;
const DEFAULT_STALE_MS = 10_000;
const FIRST_BACKOFF_MS = 1;
const MAX_BACKOFF_MS = 25;

interface Holder {
  pid?: number;
  host?: string;
}

/** What identifies a lock file found on disk: inode numbers are reused at once, so its text counts too. */
interface Identity {
  ino: number;
  text: string;
}

export async function acquireFileLock(path: string, options: FileLockOptions = {}): Promise<FileLock> {
  const maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  const staleMs = options.staleMs ?? DEFAULT_STALE_MS;
  const deadline = Date.now() + maxWaitMs;
  let backoff = FIRST_BACKOFF_MS;
  for (;;) {
    const taken = await tryCreate(path);
    if (taken) return taken;
    const found = await inspect(path);
    if (found === 'gone') continue;
    if (isStale(found, staleMs)) {
      await breakStale(path, found);
      continue;
    }
    if (Date.now() >= deadline) throw new FileLockNotTaken(`the lock ${path} was not taken within ${maxWaitMs} ms (${describeHolder(found)})`);
    // Jitter keeps waiters from retrying in step with each other.
    await sleep(backoff + Math.random() * backoff);
    backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
  }
}

/** The lock, or undefined when someone else holds it. */
async function tryCreate(path: string, mayCreateFolder = true): Promise<FileLock | undefined> {
  let handle;
  try {
    handle = await open(path, 'wx', 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return undefined;
    if (code === 'ENOENT' && mayCreateFolder) {
      await mkdir(dirname(path), { recursive: true, mode: 0o700 }).catch((problem: unknown) => {
        throw unusable(path, 'created', problem);
      });
      return tryCreate(path, false);
    }
    throw unusable(path, 'created', error);
  }
  try {
    await handle.write(`${JSON.stringify({ pid: process.pid, host: hostname() })}\n`);
  } catch (error) {
    await handle.close();
    await unlink(path).catch(() => undefined);
    throw unusable(path, 'created', error);
  }
  // The handle stays open while the lock is held: it keeps the inode from being reused, so
  // comparing inode numbers at release tells whether the file at `path` is still this lock.
  return { release: () => release(path, handle) };
}

function unusable(path: string, what: 'created' | 'read', error: unknown): FileLockNotTaken {
  return new FileLockNotTaken(`the lock ${path} cannot be ${what}: ${(error as Error).message}`);
}

interface FoundLock extends Identity {
  holder: Holder;
  ageMs: number;
}

async function inspect(path: string): Promise<FoundLock | 'gone'> {
  try {
    const [info, text] = await Promise.all([stat(path), readFile(path, 'utf8')]);
    return { holder: parseHolder(text), ino: info.ino, text, ageMs: Date.now() - info.mtimeMs };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw unusable(path, 'read', error);
  }
}

/** An empty or unreadable holder is a lock being written this instant, or one left half-written: only its age tells. */
function parseHolder(text: string): Holder {
  try {
    const value = JSON.parse(text) as Holder;
    return { pid: Number.isInteger(value.pid) ? value.pid : undefined, host: typeof value.host === 'string' ? value.host : undefined };
  } catch {
    return {};
  }
}

function isStale(found: FoundLock, staleMs: number): boolean {
  if (found.ageMs > staleMs) return true;
  const { pid, host } = found.holder;
  return pid !== undefined && host === hostname() && !isAlive(pid);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Moves the stale lock aside rather than unlinking it: if another waiter broke it first and a
 * new holder has taken the lock since, the rename caught the new lock, which is put back.
 */
async function breakStale(path: string, stale: Identity): Promise<void> {
  const aside = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.stale`;
  try {
    await rename(path, aside);
  } catch {
    return; // Gone already: someone else broke or released it.
  }
  try {
    if (!(await isLock(aside, stale))) await link(aside, path).catch(() => undefined);
  } finally {
    await unlink(aside).catch(() => undefined);
  }
}

async function release(path: string, handle: FileHandle): Promise<void> {
  try {
    const [own, current] = await Promise.all([handle.stat(), stat(path)]);
    if (own.ino === current.ino) await unlink(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  } finally {
    await handle.close();
  }
}

async function isLock(path: string, identity: Identity): Promise<boolean> {
  try {
    const [info, text] = await Promise.all([stat(path), readFile(path, 'utf8')]);
    return info.ino === identity.ino && text === identity.text;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

function describeHolder(found: FoundLock): string {
  const { pid, host } = found.holder;
  const who = pid === undefined ? 'its holder is not named in it' : `held by pid ${pid}${host && host !== hostname() ? ` on ${host}` : ''}`;
  return `${who} for ${(found.ageMs / 1000).toFixed(1)} s`;
}

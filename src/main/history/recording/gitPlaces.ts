import { readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/** The git repository a directory is in, as a block's record keeps it. */
export interface GitPlace {
  /** The working tree's top folder (a linked worktree's or a submodule's own, not the main one's). */
  repoRoot: string;
  /** The checked-out branch; null when HEAD is detached (a bare commit is no branch to filter by). */
  branch: string | null;
}

/** A directory looked up again after this long: a `git checkout` between two commands shows soon enough. */
const EXPIRY_MS = 5_000;
const KEPT = 256;

/**
 * Finds the repository and branch of blocks' working directories by reading files, as git
 * would find them: no `git` process per block. Lookups are asynchronous and made after a block
 * has finished, never on the output path; each directory's answer is kept for a few seconds,
 * and concurrent lookups of one directory share one read.
 */
export class GitPlaces {
  private readonly cache = new Map<string, { expires: number; place: Promise<GitPlace | null> }>();

  constructor(private readonly now: () => number = Date.now) {}

  of(cwd: string | null | undefined): Promise<GitPlace | null> {
    if (!cwd || !isAbsolute(cwd)) return Promise.resolve(null);
    const cached = this.cache.get(cwd);
    if (cached && cached.expires > this.now()) return cached.place;
    const place = findGitPlace(cwd);
    this.cache.delete(cwd);
    this.cache.set(cwd, { expires: this.now() + EXPIRY_MS, place });
    if (this.cache.size > KEPT) this.cache.delete(this.cache.keys().next().value!);
    return place;
  }
}

/**
 * Walks up from `cwd` to the first folder holding `.git`: a folder (a repository), or a file
 * `gitdir: <path>` (a linked worktree or a submodule, whose HEAD is in that git folder). Null
 * outside any repository, or when what is found cannot be read.
 */
export async function findGitPlace(cwd: string): Promise<GitPlace | null> {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const dotGit = join(dir, '.git');
    const kind = await stat(dotGit).then(
      (found) => (found.isDirectory() ? 'folder' : found.isFile() ? 'file' : null),
      () => null,
    );
    if (kind) {
      const gitDir = kind === 'folder' ? dotGit : await linkedGitDir(dotGit, dir);
      return gitDir ? { repoRoot: dir, branch: await branchOf(gitDir) } : null;
    }
    if (dirname(dir) === dir) return null;
  }
}

async function linkedGitDir(dotGitFile: string, dir: string): Promise<string | null> {
  const text = await readFile(dotGitFile, 'utf8').catch(() => '');
  const link = /^gitdir: *(.+?)\s*$/m.exec(text)?.[1];
  return link ? resolve(dir, link) : null;
}

/** `ref: refs/heads/<branch>` in HEAD; anything else (a commit hash: detached) is no branch. */
async function branchOf(gitDir: string): Promise<string | null> {
  const head = await readFile(join(gitDir, 'HEAD'), 'utf8').catch(() => '');
  return /^ref: *refs\/heads\/(.+?)\s*$/.exec(head)?.[1] ?? null;
}

/**
 * A repository's effective git config, read without running git (issue 14, "git read commands that
 * run what the repository's config names").
 *
 * `git status`, `git diff`, `git log` only read — unless the config names a program git runs for
 * them: `core.fsmonitor`, a pager, `diff.external`, a textconv or filter driver, a hook that runs
 * when the index is refreshed … A repository's `.git/config` is not under version control but
 * anything that wrote into the directory (an extracted tarball, an earlier command) can have set
 * it. So the gate reads the config files itself, the way git finds them, with a small INI parser:
 * running `git config` would be safe (it runs no fsmonitor, pager or driver) but costs a process
 * per classification and depends on the git installed; reading the files costs a few `stat`s when
 * cached.
 *
 * What is read: the system file (`/etc/gitconfig`), the user's (`$XDG_CONFIG_HOME/git/config`,
 * `~/.gitconfig`), the repository's (`<commondir>/config`, `<gitdir>/config.worktree`), every file
 * they include (`include.path`, and `includeIf.*.path` whatever its condition — a superset of what
 * git reads), and the configs of submodules under `<commondir>/modules`. The repository is found as
 * git finds it: the nearest `.git` (a directory, or a file saying `gitdir: …`, with `commondir` for
 * linked worktrees) above the directory, or the directory itself when it is a git directory.
 *
 * Cache: per (directory, home, options), with the `stat` stamp (mtime, ctime, size, inode) of every
 * path looked at — including the ones that did not exist, so a `.git` or a config appearing is
 * seen. A cached answer is used only while every stamp is unchanged.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { posix } from 'node:path';

export interface GitConfigEntry {
  /** `section.name` or `section.subsection.name`; section and name lowercased, the subsection as written. */
  key: string;
  /** Undefined for a key without `=` (boolean true). */
  value: string | undefined;
  /** The file it was read from. */
  file: string;
  /** Where the file belongs: the repository (or a submodule of it), or the user's / the system's config. */
  scope: 'repository' | 'submodule' | 'user' | 'system';
  /**
   * A system file only root can change (owned by root, not writable by group or others): as
   * trusted as the git binary itself, so what it names does not make a command ask. Any other
   * file's keys count, the user's own included — the agent can write there too.
   */
  trusted: boolean;
}

export interface GitRepositoryConfig {
  /** The git directory found, if any. */
  gitDir?: string;
  commonDir?: string;
  entries: GitConfigEntry[];
  /** Executable hooks present in the hooks directory (names only). */
  hooks: string[];
  /** Files that could not be read as git config (git itself would stop on them). */
  problems: string[];
}

export interface GitConfigLocations {
  home: string;
  /** `$XDG_CONFIG_HOME` (default `~/.config`). */
  xdgConfigHome?: string;
  /** The system config file (default `/etc/gitconfig`). */
  systemConfig?: string;
  /** `--git-dir`: the git directory given on the command line, instead of looking for one. */
  gitDir?: string;
}

const MAX_FILE_BYTES = 1 << 20;
const MAX_INCLUDE_DEPTH = 10;
const MAX_SUBMODULE_DEPTH = 3;
const CACHE_SIZE = 64;

// --- the INI parser ----------------------------------------------------------------------------

/** Parses git config text; throws with a line number on what git would reject. */
export function parseGitConfig(text: string): { key: string; value: string | undefined }[] {
  const out: { key: string; value: string | undefined }[] = [];
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  let section: string | undefined;
  const n = text.length;
  const fail = (what: string): never => {
    throw new Error(`line ${line}: ${what}`);
  };
  const skipSpace = (): void => {
    while (i < n && (text[i] === ' ' || text[i] === '\t' || text[i] === '\r')) i++;
  };
  const skipComment = (): void => {
    while (i < n && text[i] !== '\n') i++;
  };
  while (i < n) {
    skipSpace();
    const c = text[i];
    if (c === undefined) break;
    if (c === '\n') {
      line++;
      i++;
      continue;
    }
    if (c === '#' || c === ';') {
      skipComment();
      continue;
    }
    if (c === '[') {
      i++;
      let name = '';
      while (i < n && /[A-Za-z0-9.-]/.test(text[i] as string)) name += text[i++];
      if (name === '') fail('a section without a name');
      skipSpace();
      if (text[i] === '"') {
        i++;
        let sub = '';
        while (i < n && text[i] !== '"') {
          if (text[i] === '\n') fail('a subsection that does not end');
          if (text[i] === '\\') i++;
          sub += text[i++] ?? '';
        }
        i++;
        section = `${name.toLowerCase()}.${sub}`;
      } else {
        // `[section.sub]` (old syntax): the subsection is lowercased.
        section = name.toLowerCase();
      }
      if (text[i] !== ']') fail('a section header that does not end with ]');
      i++;
      continue; // a key may follow on the same line
    }
    if (!/[A-Za-z]/.test(c)) fail(`unexpected ${JSON.stringify(c)}`);
    let name = '';
    while (i < n && /[A-Za-z0-9-]/.test(text[i] as string)) name += text[i++];
    if (section === undefined) fail('a key before any section');
    skipSpace();
    if (i >= n || text[i] === '\n' || text[i] === '#' || text[i] === ';') {
      out.push({ key: `${section}.${name.toLowerCase()}`, value: undefined });
      continue;
    }
    if (text[i] !== '=') fail(`unexpected ${JSON.stringify(text[i])} after ${name}`);
    i++;
    skipSpace();
    let value = '';
    let pendingSpace = '';
    let quoted = false;
    for (; i < n; i++) {
      const ch = text[i] as string;
      if (ch === '\n') {
        if (quoted) fail('a quoted value that does not end');
        break;
      }
      if (!quoted && (ch === '#' || ch === ';')) {
        skipComment();
        break;
      }
      if (!quoted && (ch === ' ' || ch === '\t' || ch === '\r')) {
        pendingSpace += ch;
        continue;
      }
      value += pendingSpace;
      pendingSpace = '';
      if (ch === '"') {
        quoted = !quoted;
        continue;
      }
      if (ch === '\\') {
        const next = text[++i];
        if (next === '\n') {
          line++;
          continue;
        }
        if (next === '\r' && text[i + 1] === '\n') {
          i++;
          line++;
          continue;
        }
        const escapes: Record<string, string> = { n: '\n', t: '\t', b: '\b', '\\': '\\', '"': '"' };
        if (next === undefined || !Object.hasOwn(escapes, next)) fail('an unknown escape in a value');
        value += escapes[next as string];
        continue;
      }
      value += ch;
    }
    out.push({ key: `${section}.${name.toLowerCase()}`, value });
  }
  return out;
}

// --- finding and reading the files ---------------------------------------------------------------

interface Stamped {
  path: string;
  stamp: string;
}

function stampFrom(s: NonNullable<ReturnType<typeof statSync>>): string {
  return `${s.mtimeMs}:${s.ctimeMs}:${s.size}:${s.ino}:${s.mode}:${s.uid}`;
}

/** `throwIfNoEntry: false`: most paths looked at do not exist, and a thrown error costs more than the stat. */
function statOrUndefined(path: string): ReturnType<typeof statSync> | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function stampOf(path: string): string {
  const s = statOrUndefined(path);
  return s ? stampFrom(s) : 'none';
}

class Reader {
  readonly stamps: Stamped[] = [];
  readonly result: GitRepositoryConfig = { entries: [], hooks: [], problems: [] };
  private readonly seen = new Set<string>();
  private readonly stats = new Map<string, ReturnType<typeof statSync> | undefined>();

  constructor(private readonly home: string) {}

  /** Stats a path and remembers its stamp for the cache. */
  stat(path: string): ReturnType<typeof statSync> | undefined {
    if (this.stats.has(path)) return this.stats.get(path);
    const s = statOrUndefined(path);
    this.stats.set(path, s);
    this.stamps.push({ path, stamp: s ? stampFrom(s) : 'none' });
    return s;
  }

  readText(path: string): string | undefined {
    const s = this.stat(path);
    if (!s || !s.isFile()) return undefined;
    if (s.size > MAX_FILE_BYTES) {
      this.result.problems.push(`${path} is too large to read`);
      return undefined;
    }
    try {
      return readFileSync(path, 'utf8');
    } catch {
      this.result.problems.push(`${path} could not be read`);
      return undefined;
    }
  }

  expand(path: string, base: string): string {
    if (path === '~' || path.startsWith('~/')) return posix.join(this.home, path.slice(1));
    return posix.resolve(base, path);
  }

  /** Reads one config file and what it includes. */
  file(path: string, scope: GitConfigEntry['scope'], depth = 0): void {
    if (depth > MAX_INCLUDE_DEPTH || this.seen.has(`${scope}:${path}`)) return;
    this.seen.add(`${scope}:${path}`);
    const text = this.readText(path);
    if (text === undefined) return;
    const s = this.stat(path);
    const trusted = scope === 'system' && s !== undefined && s.uid === 0 && (Number(s.mode) & 0o022) === 0;
    let parsed: { key: string; value: string | undefined }[];
    try {
      parsed = parseGitConfig(text);
    } catch (err) {
      this.result.problems.push(`${path}: ${(err as Error).message}`);
      return;
    }
    for (const { key, value } of parsed) {
      this.result.entries.push({ key, value, file: path, scope, trusted });
      const lower = key.toLowerCase();
      if ((lower === 'include.path' || (lower.startsWith('includeif.') && lower.endsWith('.path'))) && value) {
        this.file(this.expand(value, posix.dirname(path)), scope, depth + 1);
      }
    }
  }

  /** The git directory for `dir`, as git discovers it. */
  discover(dir: string): string | undefined {
    for (let d = dir; ; d = posix.dirname(d)) {
      const dotGit = posix.join(d, '.git');
      const s = this.stat(dotGit);
      if (s?.isDirectory()) return dotGit;
      if (s?.isFile()) {
        const m = /^gitdir:\s*(.*?)\s*$/m.exec(this.readText(dotGit) ?? '');
        if (m?.[1]) return posix.resolve(d, m[1]);
      }
      // `dir` itself a git directory (inside `.git`, or a bare repository).
      if (this.stat(posix.join(d, 'HEAD'))?.isFile() && this.stat(posix.join(d, 'objects'))?.isDirectory()) return d;
      if (d === '/') return undefined;
    }
  }

  repository(gitDir: string): void {
    this.result.gitDir = gitDir;
    const commonText = this.readText(posix.join(gitDir, 'commondir'));
    const commonDir = commonText?.trim() ? posix.resolve(gitDir, commonText.trim()) : gitDir;
    this.result.commonDir = commonDir;
    this.file(posix.join(commonDir, 'config'), 'repository');
    this.file(posix.join(gitDir, 'config.worktree'), 'repository');
    this.submodules(posix.join(commonDir, 'modules'), 0);
  }

  private submodules(dir: string, depth: number): void {
    if (depth > MAX_SUBMODULE_DEPTH || !this.stat(dir)?.isDirectory()) return;
    let names: string[];
    try {
      names = readdirNames(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const sub = posix.join(dir, name);
      if (this.stat(posix.join(sub, 'config'))?.isFile()) {
        this.file(posix.join(sub, 'config'), 'submodule');
        this.submodules(posix.join(sub, 'modules'), depth + 1);
      } else this.submodules(sub, depth + 1); // submodule names may contain slashes
    }
  }

  /** Executable hooks in the hooks directory (`core.hooksPath`, else `<commondir>/hooks`). */
  hooks(names: readonly string[], worktree: string | undefined): void {
    const configured = [...this.result.entries].reverse().find((e) => e.key === 'core.hookspath' && e.value);
    const dir = configured?.value ? this.expand(configured.value, worktree ?? this.result.commonDir ?? '/') : posix.join(this.result.commonDir ?? '/', 'hooks');
    for (const name of names) {
      const s = this.stat(posix.join(dir, name));
      if (s?.isFile() && (Number(s.mode) & 0o111) !== 0) this.result.hooks.push(name);
    }
  }
}

function readdirNames(dir: string): string[] {
  return readdirSync(dir);
}

/** Hooks git runs during commands that only read (see `gitProgramsFor`). */
export const READ_HOOKS: readonly string[] = ['post-index-change'];

const cache = new Map<string, { stamps: Stamped[]; config: GitRepositoryConfig }>();

/** The effective config for git run in `dir` (absolute). Never runs anything. */
export function readGitConfig(dir: string, where: GitConfigLocations): GitRepositoryConfig {
  const key = JSON.stringify([dir, where.home, where.xdgConfigHome ?? '', where.systemConfig ?? '', where.gitDir ?? '']);
  const hit = cache.get(key);
  if (hit && hit.stamps.every((s) => stampOf(s.path) === s.stamp)) return hit.config;
  const reader = new Reader(where.home);
  reader.file(where.systemConfig ?? '/etc/gitconfig', 'system');
  reader.file(posix.join(where.xdgConfigHome ?? posix.join(where.home, '.config'), 'git', 'config'), 'user');
  reader.file(posix.join(where.home, '.gitconfig'), 'user');
  const gitDir = where.gitDir ?? reader.discover(dir);
  if (gitDir) {
    reader.repository(gitDir);
    const worktree = posix.basename(gitDir) === '.git' ? posix.dirname(gitDir) : undefined;
    reader.hooks(READ_HOOKS, worktree);
  }
  cache.delete(key);
  cache.set(key, { stamps: reader.stamps, config: reader.result });
  while (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return reader.result;
}

/** For tests: forget what was cached. */
export function clearGitConfigCache(): void {
  cache.clear();
}

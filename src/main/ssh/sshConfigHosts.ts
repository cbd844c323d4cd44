import { readFile, readdir, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import picomatch from 'picomatch';
import type { SshHost, SshHostList } from '../../shared/ssh';
import { splitConfigLine } from './sshConfigLine';

/** OpenSSH's own limit on nested `Include`s (READCONF_MAX_DEPTH); it also ends include cycles. */
const MAX_INCLUDE_DEPTH = 16;
/** A config file larger than this is not read (a real one is a few KB). */
const MAX_FILE_BYTES = 1024 * 1024;
/** The most hosts listed: the picker filters, it does not page. */
const MAX_HOSTS = 5_000;

/** What a `Host` block sets for the aliases it names (the first value wins, as in ssh). */
interface HostBlock {
  aliases: string[];
  settings: Omit<SshHost, 'alias'>;
}

/**
 * The host aliases of the user's `~/.ssh/config` and the files it `Include`s, in file order,
 * each once, with the `HostName`, `User` and `Port` their own `Host` blocks give. Patterns
 * (`*`, `?`, `!`) are not hosts one can connect to and are left out, and so are `Match`
 * blocks. Read when asked; never throws: what could not be read is said in `problems`.
 */
export async function readSshConfigHosts(home: string): Promise<SshHostList> {
  const reader = new ConfigReader(join(home, '.ssh'), home);
  await reader.readFile(join(home, '.ssh', 'config'), 0, true);
  return { hosts: reader.hosts(), problems: reader.problems };
}

class ConfigReader {
  readonly problems: string[] = [];
  private readonly blocks: HostBlock[] = [];

  constructor(
    private readonly sshDir: string,
    private readonly home: string,
  ) {}

  async readFile(path: string, depth: number, top = false): Promise<void> {
    let text: string;
    try {
      const info = await stat(path);
      if (info.isDirectory()) {
        this.problems.push(`${path} is a directory, not a config file; it was skipped`);
        return;
      }
      if (info.size > MAX_FILE_BYTES) {
        this.problems.push(`${path} is larger than ${MAX_FILE_BYTES / 1024} KB; it was not read`);
        return;
      }
      text = await readFile(path, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (top && code === 'ENOENT') this.problems.push(`there is no ${path}`);
      // A glob's own matches exist; a named Include that is missing is silently skipped by ssh too.
      else if (code !== 'ENOENT') this.problems.push(`${path} could not be read (${code ?? String(error)})`);
      return;
    }
    await this.readText(text, path, depth);
  }

  private async readText(text: string, path: string, depth: number): Promise<void> {
    // Lines before any Host or Match apply to every host: nothing to list there, but Includes count.
    let current: HostBlock | 'match' | undefined;
    for (const line of text.split(/\r?\n/)) {
      const words = splitConfigLine(line);
      if (words === undefined) {
        this.problems.push(`${path}: a line has an unclosed quote; it was skipped`);
        continue;
      }
      const [keyword, ...args] = words;
      if (!keyword) continue;
      switch (keyword.toLowerCase()) {
        case 'host':
          current = { aliases: args.filter(isHostAlias), settings: {} };
          this.blocks.push(current);
          break;
        case 'match':
          current = 'match';
          break;
        case 'include':
          if (current === 'match') break;
          await this.include(args, path, depth);
          break;
        case 'hostname':
          if (typeof current === 'object' && args[0] !== undefined) current.settings.hostName ??= args[0];
          break;
        case 'user':
          if (typeof current === 'object' && args[0] !== undefined) current.settings.user ??= args[0];
          break;
        case 'port': {
          const port = Number(args[0]);
          if (typeof current === 'object' && Number.isInteger(port) && port > 0 && port < 65_536) current.settings.port ??= port;
          break;
        }
      }
    }
  }

  private async include(patterns: string[], from: string, depth: number): Promise<void> {
    if (depth + 1 > MAX_INCLUDE_DEPTH) {
      this.problems.push(`${from}: Include is nested more than ${MAX_INCLUDE_DEPTH} deep (a cycle?); the rest was not followed`);
      return;
    }
    for (const pattern of patterns) {
      const absolute = pattern.startsWith('~/') ? join(this.home, pattern.slice(2)) : isAbsolute(pattern) ? pattern : join(this.sshDir, pattern);
      for (const file of await expandGlob(absolute)) await this.readFile(file, depth + 1);
    }
  }

  hosts(): SshHost[] {
    const byAlias = new Map<string, SshHost>();
    for (const block of this.blocks) {
      for (const alias of block.aliases) {
        const known = byAlias.get(alias);
        if (!known) {
          if (byAlias.size >= MAX_HOSTS) break;
          byAlias.set(alias, { alias, ...block.settings });
          continue;
        }
        // A later block naming the same alias adds what the earlier ones did not set.
        known.hostName ??= block.settings.hostName;
        known.user ??= block.settings.user;
        known.port ??= block.settings.port;
      }
    }
    return [...byAlias.values()].map((host) => Object.fromEntries(Object.entries(host).filter(([, value]) => value !== undefined)) as SshHost);
  }
}

/** A name one can pass to ssh: no pattern characters, no negation, nothing that reads as an option or needs two words. */
function isHostAlias(word: string): boolean {
  return word !== '' && !/[*?!\s]/.test(word) && !word.startsWith('-');
}

/** The files a path with glob characters names, sorted as glob(3) sorts them; the path itself when it has none. */
async function expandGlob(path: string): Promise<string[]> {
  const parts = path.split('/');
  let found = [parts[0] === '' ? '/' : parts[0]!];
  for (const part of parts.slice(1)) {
    if (part === '') continue;
    if (!picomatch.scan(part).isGlob) {
      found = found.map((dir) => join(dir, part));
      continue;
    }
    const matches = picomatch(part, { dot: false });
    const next: string[] = [];
    for (const dir of found) {
      const names = await readdir(dir).catch(() => [] as string[]);
      for (const name of names.sort()) if (matches(name)) next.push(join(dir, name));
    }
    found = next;
  }
  return found;
}

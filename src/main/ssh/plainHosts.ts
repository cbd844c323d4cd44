import { copyFileSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../settings/atomicWrite';

/**
 * The servers that refused Tandem's ssh bootstrap, so that the next `ssh` to them is plain
 * at once (docs/ssh.md). One line per server, `user@hostname:port<TAB>when<TAB>why`, newest
 * last, read by the wrapper's decide.sh on each `ssh`: a text file, so a POSIX sh reads it
 * without forking and a person can edit it. `tandem ssh --forget-plain HOST` removes lines.
 */

export const PLAIN_HOSTS_FILE = 'ssh-plain-hosts';
/** The oldest lines go beyond this many servers. */
export const MAX_PLAIN_HOSTS = 200;
/** A file bigger than this is not Tandem's: it is set aside, not read. */
const MAX_FILE_BYTES = 256 * 1024;
const HEADER = '# Servers that refused Tandem\'s ssh bootstrap: `ssh` connects to them without integration.\n# One line each: user@hostname:port, when, why. Delete a line (or run `tandem ssh --forget-plain HOST`) to try again.\n';
/**
 * `user@hostname:port` as decide.sh prints it: no ASCII blank or control character (its
 * `[[:space:][:cntrl:]]`), and no `#` first, which would make the line a comment.
 */
const KEY = /^(?!#)[^\x00-\x20\x7f]+@[^\x00-\x20\x7f]+:\d{1,5}$/;

export interface PlainHost {
  key: string;
  when: string;
  why: string;
}

export function plainHostsPath(stateDir: string): string {
  return join(stateDir, PLAIN_HOSTS_FILE);
}

export function isPlainHostKey(key: string): boolean {
  return KEY.test(key);
}

/** The remembered servers, oldest first; `problems` names what was skipped (a line, or the whole file). */
export function readPlainHosts(file: string): { hosts: PlainHost[]; problems: string[] } {
  let text: string;
  try {
    if (statSync(file).size > MAX_FILE_BYTES) return { hosts: [], problems: [`${file} is over ${MAX_FILE_BYTES} bytes; not read`] };
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { hosts: [], problems: [] };
    return { hosts: [], problems: [`cannot read ${file}: ${(error as Error).message}`] };
  }
  const hosts: PlainHost[] = [];
  const problems: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '' || line.startsWith('#')) return;
    const [key = '', when = '', why = ''] = line.split('\t');
    if (isPlainHostKey(key)) hosts.push({ key, when, why });
    else problems.push(`${file} line ${i + 1} is not \`user@hostname:port\`; skipped`);
  });
  return { hosts, problems };
}

function write(file: string, hosts: PlainHost[], problems: string[]): void {
  // What was not understood is kept beside the new file, not lost.
  if (problems.length > 0) {
    try {
      copyFileSync(file, `${file}.broken`);
    } catch {
      // Nothing there to keep.
    }
  }
  writeFileAtomic(file, HEADER + hosts.map((host) => `${host.key}\t${host.when}\t${host.why.replace(/[\t\n]/g, ' ')}\n`).join(''));
}

/** Adds (or refreshes) `key`. Returns the problems met reading the old file (they are logged; the file is rewritten). */
export function rememberPlainHost(file: string, key: string, why: string, now = new Date()): string[] {
  if (!isPlainHostKey(key)) throw new Error(`not a server key (user@hostname:port): ${JSON.stringify(key)}`);
  const { hosts, problems } = readPlainHosts(file);
  const kept = hosts.filter((host) => host.key !== key);
  kept.push({ key, when: now.toISOString(), why });
  write(file, kept.slice(-MAX_PLAIN_HOSTS), problems);
  return problems;
}

/**
 * Removes the servers matching `host`: a whole key (`alice@db1:22`), or a host name, which
 * matches every user and port on it. Returns the keys removed.
 */
export function forgetPlainHost(file: string, host: string): { removed: string[]; problems: string[] } {
  const { hosts, problems } = readPlainHosts(file);
  const matches = (key: string) => key === host || key.slice(key.lastIndexOf('@') + 1, key.lastIndexOf(':')) === host.toLowerCase();
  const removed = hosts.filter((entry) => matches(entry.key)).map((entry) => entry.key);
  if (removed.length > 0) write(file, hosts.filter((entry) => !matches(entry.key)), problems);
  return { removed, problems };
}

export const WATCHERS_USAGE = `Usage:
  tandem watchers list [--json] [--dir DIR]
                       the watchers of your watchers.toml and of DIR's project
                       (.tandem/watchers.toml; DIR defaults to here): trigger, action, next
                       scheduled run, and whether a project file is allowed
  tandem watchers test NAME [--dir DIR]
                       checks one watcher and shows what it would watch: the folders and globs,
                       the next 3 scheduled times, the block rule tried on your last 20 commands,
                       the phrase
  tandem watchers allow [DIR] [--yes]
                       trusts DIR's project watchers file as it is now (it shows the watchers and
                       asks; --yes: without asking, needed when there is no terminal); any later
                       edit makes it untrusted again
  tandem watchers deny [DIR]
                       forgets that trust: the project's watchers do nothing
  Exit status: 0 fine, 1 a watchers file is invalid (list, test, allow) or NAME is not there,
  2 a usage error.`;

export type WatchersArguments =
  | { kind: 'list'; json: boolean; dir?: string }
  | { kind: 'test'; name: string; dir?: string }
  | { kind: 'allow'; dir?: string; yes: boolean }
  | { kind: 'deny'; dir?: string }
  | { kind: 'help' }
  | { kind: 'error'; message: string };

/** `tandem watchers …` (everything after `watchers`). */
export function parseWatchersArguments(argv: readonly string[]): WatchersArguments {
  if (argv.includes('--help') || argv.includes('-h')) return { kind: 'help' };
  const [sub, ...rest] = argv;
  const words: string[] = [];
  let json = false;
  let yes = false;
  let dir: string | undefined;
  for (let index = 0; index < rest.length; index++) {
    const arg = rest[index]!;
    if (arg === '--json') json = true;
    else if (arg === '--yes' || arg === '-y') yes = true;
    else if (arg === '--dir') {
      dir = rest[++index];
      if (dir === undefined) return { kind: 'error', message: '--dir needs a folder.' };
    } else if (arg.startsWith('--dir=')) dir = arg.slice('--dir='.length);
    else if (arg.startsWith('-')) return { kind: 'error', message: `Unknown option "${arg}" for tandem watchers ${sub ?? ''}.`.replace(/ \.$/, '.') };
    else words.push(arg);
  }
  const only = (allowed: { json?: boolean; yes?: boolean; dir?: boolean }): string | undefined =>
    json && !allowed.json ? '--json' : yes && !allowed.yes ? '--yes' : dir !== undefined && !allowed.dir ? '--dir' : undefined;
  switch (sub) {
    case 'list': {
      const extra = only({ json: true, dir: true }) ?? words[0];
      return extra === undefined ? { kind: 'list', json, dir } : { kind: 'error', message: `Unknown argument "${extra}" for tandem watchers list.` };
    }
    case 'test': {
      const extra = only({ dir: true }) ?? words[1];
      if (extra !== undefined) return { kind: 'error', message: `Unknown argument "${extra}" for tandem watchers test.` };
      return words[0] === undefined ? { kind: 'error', message: 'tandem watchers test needs the NAME of a watcher.' } : { kind: 'test', name: words[0], dir };
    }
    case 'allow':
    case 'deny': {
      const extra = only({ yes: sub === 'allow' }) ?? words[1];
      if (extra !== undefined) return { kind: 'error', message: `Unknown argument "${extra}" for tandem watchers ${sub}.` };
      return sub === 'allow' ? { kind: 'allow', dir: words[0], yes } : { kind: 'deny', dir: words[0] };
    }
    case undefined:
      return { kind: 'error', message: 'tandem watchers needs list, test, allow or deny.' };
    default:
      return { kind: 'error', message: `Unknown tandem watchers command "${sub}".` };
  }
}

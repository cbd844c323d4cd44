import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { confirm } from '../confirmQuestion';
import { PROJECT_WATCHERS_FILE } from '../../watchers/projectFolders';
import type { ProjectTrust } from '../../watchers/projectTrust';
import { tildePath } from '../../watchers/triggerSummary';
import { readWatchersFile } from '../../watchers/watcherFile';
import { projectOf } from '../../watchers/watcherSources';
import type { WatchersIo } from './watchersIo';

interface TrustContext {
  home: string;
  trust: ProjectTrust;
  io: WatchersIo;
}

/** `tandem watchers allow [DIR] [--yes]` and `tandem watchers deny [DIR]`. */
export async function runWatcherTrust(command: { kind: 'allow'; dir?: string; yes: boolean } | { kind: 'deny'; dir?: string }, { home, trust, io }: TrustContext): Promise<number> {
  const project = projectOf(command.dir ?? io.cwd, home);
  const file = join(project, PROJECT_WATCHERS_FILE);
  const shown = tildePath(file, home);
  if (command.kind === 'deny') {
    io.stdout.write(trust.deny(file) ? `${shown}: no longer trusted; its watchers do nothing\n` : `${shown} was not trusted; nothing changed\n`);
    return 0;
  }
  if (!existsSync(file)) {
    io.stderr.write(`tandem: there is no ${shown}\n`);
    return 1;
  }
  const read = readWatchersFile(file);
  if (read.kind !== 'valid') {
    io.stderr.write(`tandem: ${shown}: ${read.kind === 'invalid' ? read.error : 'it is gone'}; fix it first (nothing was allowed)\n`);
    return 1;
  }
  io.stdout.write(`${shown} has ${read.watchers.length} watcher${read.watchers.length === 1 ? '' : 's'}:\n`);
  for (const watcher of read.watchers) io.stdout.write(`  ${watcher.name}: ${watcher.trigger}, ${watcher.action}: ${watcher.instruction}\n`);
  if (!command.yes) {
    if (!io.stdin.isTTY) {
      io.stderr.write('tandem: there is no terminal to ask on, so nothing was allowed (add --yes to allow it without asking)\n');
      return 2;
    }
    if (!(await confirm(`Allow these watchers to run (actions "ask" and "auto" start agent runs)? [y/N] `, io))) {
      io.stdout.write('nothing was allowed\n');
      return 0;
    }
  }
  trust.allow(file, read.text, 'cli');
  io.stdout.write(`${shown}: allowed as it is now; an edit makes it untrusted again\n`);
  return 0;
}

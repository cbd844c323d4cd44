import { homedir } from 'node:os';
import { tandemPaths } from '../../settings/paths';
import { ProjectTrust } from '../../watchers/projectTrust';
import { tildePath } from '../../watchers/triggerSummary';
import { readWatcherSources } from '../../watchers/watcherSources';
import { staticView } from './staticViews';
import { parseWatchersArguments, WATCHERS_USAGE } from './watchersArguments';
import type { WatchersIo } from './watchersIo';

const OK = 0;
const INVALID = 1;
const USAGE_ERROR = 2;

/** `tandem watchers list|test|allow|deny`: reads the files itself; no engine, pane or window is started. */
export async function runWatchersCommand(argv: readonly string[], io: WatchersIo): Promise<number> {
  const parsed = parseWatchersArguments(argv);
  if (parsed.kind === 'help') {
    io.stdout.write(`${WATCHERS_USAGE}\n`);
    return OK;
  }
  if (parsed.kind === 'error') {
    io.stderr.write(`tandem: ${parsed.message}\n${WATCHERS_USAGE}\n`);
    return USAGE_ERROR;
  }
  const home = io.env.HOME || homedir();
  const paths = tandemPaths(io.env);
  const trust = new ProjectTrust(paths.watcherTrustFile);
  switch (parsed.kind) {
    case 'list': {
      const files = readWatcherSources(paths, home, parsed.dir ?? io.cwd, trust);
      const view = staticView(files, home);
      if (parsed.json) io.stdout.write(`${JSON.stringify(view)}\n`);
      else io.stdout.write(listText(view, home));
      for (const file of view.files) if (file.error) io.stderr.write(`tandem: ${tildePath(file.path, home)}: ${file.error}\n`);
      return view.files.some((file) => file.error) ? INVALID : OK;
    }
    case 'test': {
      // `test` may open the history store and scrub its commands: loaded only for it.
      const { runWatcherTest } = await import('./watcherTest');
      return runWatcherTest(parsed.name, readWatcherSources(paths, home, parsed.dir ?? io.cwd, trust), { home, paths, io });
    }
    case 'allow':
    case 'deny': {
      const { runWatcherTrust } = await import('./watcherTrust');
      return runWatcherTrust(parsed, { home, trust, io });
    }
  }
}

function listText(view: ReturnType<typeof staticView>, home: string): string {
  const lines: string[] = [];
  for (const file of view.files) {
    const state = file.error ? 'invalid' : file.untrusted ? `not allowed: \`tandem watchers allow ${tildePath(file.path.replace(/\/\.tandem\/watchers\.toml$/, ''), home)}\` to trust it` : undefined;
    lines.push(`${tildePath(file.path, home)} (${file.source}${state ? `, ${state}` : ''})`);
    const watchers = view.watchers.filter((watcher) => watcher.file === file.path);
    if (watchers.length === 0 && !file.error) lines.push('  no watchers');
    for (const watcher of watchers) {
      const parts = [watcher.name, watcher.trigger, watcher.summary, watcher.action];
      if (!watcher.enabled) parts.push('off');
      if (watcher.nextRun !== undefined) parts.push(`next ${new Date(watcher.nextRun).toString().slice(0, 21)}`);
      if (watcher.inactive) parts.push(watcher.inactive);
      lines.push(`  ${parts.join(' · ')}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

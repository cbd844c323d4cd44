import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { TandemPaths } from '../../settings/paths';
import { scrubSecrets } from '../../safety/secretScrubber';
import { tildePath, triggerSummary } from '../../watchers/triggerSummary';
import { blockMatches, outputMatch } from '../../watchers/triggers/blockRule';
import { absoluteGlob, watchedFolders } from '../../watchers/triggers/fileGlobs';
import { nextRuns } from '../../watchers/triggers/scheduleTrigger';
import { watcherCwd } from '../../watchers/watcherCwd';
import type { BlockWatcherConfig, WatcherConfig } from '../../watchers/watcherSchema';
import type { WatcherSourceFile } from '../../watchers/watcherSources';
import type { WatchersIo } from './watchersIo';

/** How many of the user's recent commands a block rule is tried on. */
const RECENT_BLOCKS = 20;

interface TestContext {
  home: string;
  paths: TandemPaths;
  io: WatchersIo;
}

/** `tandem watchers test NAME`: validates the files and shows what NAME would watch. */
export async function runWatcherTest(name: string, files: readonly WatcherSourceFile[], { home, paths, io }: TestContext): Promise<number> {
  for (const file of files) if (file.read.kind === 'invalid') io.stderr.write(`tandem: ${tildePath(file.path, home)}: ${file.read.error}\n`);
  const found = files.flatMap((file) => (file.read.kind === 'valid' ? file.read.watchers.filter((watcher) => watcher.name === name).map((watcher) => ({ watcher, file })) : []));
  if (found.length === 0) {
    const known = files.flatMap((file) => (file.read.kind === 'valid' ? file.read.watchers.map((watcher) => watcher.name) : []));
    io.stderr.write(`tandem: there is no watcher "${name}"${known.length ? ` (there are: ${known.join(', ')})` : ''}.\n`);
    return 1;
  }
  for (const { watcher, file } of found) {
    const cwd = watcherCwd(watcher, file.root, home);
    const lines = [
      `${watcher.name} (${file.source}: ${tildePath(file.path, home)})`,
      `  trigger      ${watcher.trigger}: ${triggerSummary(watcher, cwd, home)}`,
      `  action       ${watcher.action}${watcher.enabled ? '' : ' (off: enabled = false)'}`,
      `  instruction  ${watcher.instruction}`,
      `  folder       ${tildePath(cwd, home)}`,
      `  debounce     ${watcher.debounce} ms, at most ${watcher.max_runs_per_hour} runs an hour`,
      ...(file.untrusted ? [`  not allowed  the project file is not trusted as it is now: it does nothing until \`tandem watchers allow\``] : []),
      ...(await triggerLines(watcher, cwd, home, paths)),
    ];
    io.stdout.write(`${lines.join('\n')}\n`);
  }
  return files.some((file) => file.read.kind === 'invalid') ? 1 : 0;
}

async function triggerLines(watcher: WatcherConfig, cwd: string, home: string, paths: TandemPaths): Promise<string[]> {
  switch (watcher.trigger) {
    case 'file_change': {
      const globs = watcher.path.map((glob) => absoluteGlob(glob, cwd, home));
      const folders = watchedFolders(globs);
      const inGit = folders.length > 0 && existsSync(folders[0]!) && isGitWorkTree(folders[0]!);
      return [
        `  globs        ${globs.map((glob) => tildePath(glob, home)).join(', ')}`,
        ...folders.map((folder) => `  watches      ${tildePath(folder, home)}${existsSync(folder) ? '' : ' (does not exist: nothing is watched)'}`),
        `  ignores      .git/ and node_modules/ always; ${inGit ? "what git ignores (.gitignore files, .git/info/exclude)" : '.gitignore only inside a git work tree (this is none)'}`,
      ];
    }
    case 'block':
      return blockLines(watcher, paths);
    case 'schedule':
      return [`  next runs    ${nextRuns(watcher, 3).map((run) => run.toString().slice(0, 24)).join('; ')}`];
    case 'screen_change':
      return [`  looks        every ${watcher.interval / 1000} s at the first visible window that matches, and reads it with OCR only when its pixels changed; needs an X11 desktop with Tesseract (the running app says when it cannot)`];
    case 'voice':
      return [`  phrase       "${watcher.phrase}": fires when a push-to-talk instruction says it (whole words, any case)`];
  }
}

function isGitWorkTree(folder: string): boolean {
  try {
    return execFileSync('git', ['rev-parse', '--is-inside-work-tree'], { cwd: folder, stdio: ['ignore', 'pipe', 'ignore'], encoding: 'utf8' }).trim() === 'true';
  } catch {
    return false;
  }
}

async function blockLines(watcher: BlockWatcherConfig, paths: TandemPaths): Promise<string[]> {
  if (!existsSync(paths.historyFile)) return ['  recent       no block history yet to try the rule on'];
  const { HistoryStore } = await import('../../history/historyStore');
  const store = await HistoryStore.open({ file: paths.historyFile, report: () => undefined });
  try {
    const recent = await store.search({ author: 'you', limit: RECENT_BLOCKS });
    if (!recent.ok) return [`  recent       the block history cannot be read: ${recent.error}`];
    const matching = recent.value.filter((record) => {
      if (!blockMatches(watcher, { command: record.command, exitCode: record.exitCode ?? undefined })) return false;
      return watcher.output === undefined || outputMatch(watcher.output, scrubSecrets(record.output ?? '').text) !== undefined;
    });
    const shown = matching.slice(0, 5).map((record) => `    ${scrubSecrets(record.command).text} (exit ${record.exitCode ?? '?'})`);
    return [`  recent       ${matching.length} of your last ${recent.value.length} commands would have fired it${shown.length ? ':' : ''}`, ...shown];
  } finally {
    store.close();
  }
}

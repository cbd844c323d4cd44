import type { WatcherView, WatchersView } from '../../../shared/watchers';
import { triggerSummary } from '../../watchers/triggerSummary';
import { nextRuns } from '../../watchers/triggers/scheduleTrigger';
import { watcherCwd } from '../../watchers/watcherCwd';
import type { WatcherSourceFile } from '../../watchers/watcherSources';

/**
 * The watchers as the files say, without a running Tandem: what `tandem watchers list`
 * shows. (When each last fired and what is held back lives in the running app.) A project
 * file that is not allowed lists its watchers as inactive, so they can be reviewed. (Whether
 * this desktop lets screen_change watchers look is for the running app to say.)
 */
export function staticView(files: readonly WatcherSourceFile[], home: string, now = new Date()): WatchersView {
  return {
    files: files.map((file) => ({
      path: file.path,
      source: file.source,
      ...(file.read.kind === 'invalid' ? { error: file.read.error } : {}),
      ...(file.untrusted ? { untrusted: true } : {}),
    })),
    watchers: files.flatMap((file) =>
      file.read.kind !== 'valid'
        ? []
        : file.read.watchers.map((watcher): WatcherView => {
            const cwd = watcherCwd(watcher, file.root, home);
            const inactive = file.untrusted ? 'not allowed: its project file is not trusted as it is now' : undefined;
            const nextRun = watcher.trigger === 'schedule' && watcher.enabled && !file.untrusted ? nextRuns(watcher, 1, now)[0]?.getTime() : undefined;
            return {
              name: watcher.name,
              source: file.source,
              file: file.path,
              trigger: watcher.trigger,
              summary: triggerSummary(watcher, cwd, home),
              action: watcher.action,
              instruction: watcher.instruction,
              enabled: watcher.enabled,
              ...(inactive ? { inactive } : {}),
              ...(nextRun !== undefined ? { nextRun } : {}),
            };
          }),
    ),
  };
}

import { describeBlockRule } from './triggers/blockRule';
import type { WatcherConfig } from './watcherSchema';

/** A path as the user reads it, with the home folder as `~`. */
export function tildePath(path: string, home: string): string {
  return path === home ? '~' : path.startsWith(home + '/') ? `~${path.slice(home.length)}` : path;
}

/** The trigger in words, for the watcher list: what it watches and where. */
export function triggerSummary(watcher: WatcherConfig, cwd: string, home: string): string {
  switch (watcher.trigger) {
    case 'file_change':
      return `${watcher.path.join(', ')} in ${tildePath(cwd, home)}`;
    case 'block':
      return describeBlockRule(watcher);
    case 'schedule':
      return `cron "${watcher.cron}"${watcher.timezone ? ` (${watcher.timezone})` : ''}`;
    case 'screen_change': {
      const window = [watcher.app && `app "${watcher.app}"`, watcher.title && `title "${watcher.title}"`].filter(Boolean).join(', ');
      return `window ${window}${watcher.pattern ? `, text matching /${watcher.pattern}/` : ', any text change'}, every ${watcher.interval / 1000} s`;
    }
    case 'voice':
      return `phrase "${watcher.phrase}"`;
  }
}

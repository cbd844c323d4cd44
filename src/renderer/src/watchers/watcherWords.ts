import { describeHold, type WatcherView, type WatchersFileView, type WatchersView } from '../../../shared/watchers';

/** "just now", "3 min ago", "2 h ago", "4 days ago". */
export function timeAgo(at: number, now: number): string {
  const seconds = Math.round((now - at) / 1000);
  if (seconds < 10) return 'just now';
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} days ago`;
}

/** "in 40 s", "in 12 min", "in 3 h", "in 2 days" (a time already passed: "due now"). */
export function timeUntil(at: number, now: number): string {
  const seconds = Math.round((at - now) / 1000);
  if (seconds <= 0) return 'due now';
  if (seconds < 60) return `in ${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `in ${minutes} min`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `in ${hours} h`;
  return `in ${Math.round(hours / 24)} days`;
}

/** A clock time the way the user reads it: "14:32", or "Mon 14:32" when not today. */
export function clockTime(at: number, now: number): string {
  const date = new Date(at);
  const time = date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  return date.toDateString() === new Date(now).toDateString() ? time : `${date.toLocaleDateString(undefined, { weekday: 'short' })} ${time}`;
}

/** The folder of a project file: `<project>/.tandem/watchers.toml` → `<project>`. */
export function projectOf(file: string): string {
  return file.replace(/\/\.tandem\/watchers\.toml$/, '');
}

/** Where a watcher comes from, as the list's source column says it. */
export function sourceLabel(watcher: Pick<WatcherView, 'source' | 'file'>): string {
  return watcher.source === 'user' ? 'yours' : `project ${projectOf(watcher.file)}`;
}

/** A file's trouble, in words the user can act on; undefined when it is fine. */
export function fileProblem(file: WatchersFileView): string | undefined {
  if (file.untrusted) return `not allowed: its watchers do nothing until you run \`tandem watchers allow ${projectOf(file.path)}\` (after reading the file)`;
  if (file.error) return `cannot be used: ${file.error}. The watchers it had before stay in effect.`;
  return undefined;
}

/** What the row says about the watcher's state: off, not watching (why), held (why). */
export function watcherState(watcher: WatcherView, now: number): string | undefined {
  if (!watcher.enabled) return 'off';
  if (watcher.inactive) return watcher.inactive.startsWith('starting') ? watcher.inactive : `not watching: ${watcher.inactive}`;
  if (watcher.held) return describeHold(watcher.held, (at) => clockTime(at, now));
  return undefined;
}

export function lastFiredText(watcher: WatcherView, now: number): string {
  return watcher.lastFired ? `${timeAgo(watcher.lastFired.at, now)}: ${watcher.lastFired.reason}` : 'never since Tandem started';
}

export function nextRunText(watcher: WatcherView, now: number): string | undefined {
  return watcher.nextRun === undefined ? undefined : `${clockTime(watcher.nextRun, now)} (${timeUntil(watcher.nextRun, now)})`;
}

/** The files worth a line above the list: those with trouble (broken, or not allowed). */
export function filesToMention(view: WatchersView): WatchersFileView[] {
  return view.files.filter((file) => fileProblem(file) !== undefined);
}

/** A stable key for a watcher row (two project files may use the same name). */
export function watcherKey(watcher: Pick<WatcherView, 'file' | 'name'>): string {
  return `${watcher.file}\0${watcher.name}`;
}

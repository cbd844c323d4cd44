import { basename, dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { Event } from '../../shared/events';
import type { WatcherHold, WatcherSource, WatcherView, WatchersView } from '../../shared/watchers';
import type { Desktop } from '../desktop/desktop';
import { scrubSecrets } from '../safety/secretScrubber';
import { FolderWatch } from '../settings/folderWatch';
import { FiringGate, type TriggerEvent } from './firing/firingGate';
import { RunSlots } from './firing/runSlots';
import { PROJECT_WATCHERS_FILE } from './projectFolders';
import type { ProjectTrust } from './projectTrust';
import { triggerSummary } from './triggerSummary';
import { combineFileEvents } from './triggers/fileTrigger';
import { OneAtATime } from './triggers/screenTrigger';
import { startTrigger, type RunningTrigger } from './triggers/startTrigger';
import type { UserBlock } from './triggers/userBlocks';
import { saysPhrase } from './triggers/voicePhrase';
import { watcherCwd } from './watcherCwd';
import { readWatchersFile } from './watcherFile';
import type { WatcherFiring } from './watcherFiring';
import type { WatcherConfig } from './watcherSchema';

/** At most this many watcher runs at once, across all watchers (2-core machines). */
export const WATCHER_RUNS_AT_ONCE = 2;

export interface WatchersLog {
  info(message: string): void;
  warning(message: string): void;
}

export interface WatchersServiceOptions {
  /** The user's watchers.toml. */
  userFile: string;
  home: string;
  trust: ProjectTrust;
  finishedBlocks: Event<UserBlock>;
  focusedPane(): number | undefined;
  /** A file change a watcher run made (docs/watchers.md "Loops"): fires no watcher. */
  ownWrite?(path: string): boolean;
  /** A watcher fired; its run is live until the returned promise settles. */
  onFiring(firing: WatcherFiring): Promise<void> | void;
  /** What screen_change watchers look with; absent: they say they cannot. */
  desktop?: Desktop;
  /** A firing was held back (rate limit, its run still going, the global cap), or goes again. */
  onHold?(watcher: string, hold: WatcherHold | undefined): void;
  log: WatchersLog;
  /** The cap on watcher runs at once; by default a cap of its own, of `runsAtOnce` (default 2). */
  slots?: RunSlots;
  runsAtOnce?: number;
  /** What `view()` shows changed: a file (re)loaded, a watcher switched, a hold began or ended. */
  changed?(): void;
}

/** Which watcher a switch is for: the name, and where there could be two of that name, its source and file. */
export interface WatcherRef {
  name: string;
  source?: WatcherSource;
  file?: string;
}

interface WatchersFile {
  path: string;
  source: WatcherSource;
  /** The folder relative paths in it are read from: the project, or home for the user's file. */
  root: string;
  error?: string;
  untrusted?: boolean;
  /** The watchers in effect (the last good ones while the file is broken). */
  watchers: ActiveWatcher[];
  folderWatch: FolderWatch;
}

interface ActiveWatcher {
  config: WatcherConfig;
  file: WatchersFile;
  cwd: string;
  gate: FiringGate;
  trigger: RunningTrigger | undefined;
  /** Why its trigger cannot watch now. */
  inactive?: string;
  lastFired?: { at: number; reason: string };
}

/**
 * The engine's watchers (docs/watchers.md): the user's watchers.toml and the allowed project
 * `.tandem/watchers.toml` files, reloaded when they change (a broken file keeps its last good
 * watchers and shows why); each watcher's trigger, firing gate and state; the views the CLI
 * and panel show. What a firing does is `onFiring`'s business.
 */
export class WatchersService {
  private readonly files = new Map<string, WatchersFile>();
  private readonly slots: RunSlots;
  private readonly ocr = new OneAtATime();
  /** Switched on or off at run time (the panel), by file and name; kept across reloads. */
  private readonly switched = new Map<string, boolean>();
  private disposed = false;
  /** `tandem watchers allow|deny` in another process changes the trust record: project files are judged again. */
  private readonly trustWatch: FolderWatch;

  constructor(private readonly options: WatchersServiceOptions) {
    this.slots = options.slots ?? new RunSlots(options.runsAtOnce ?? WATCHER_RUNS_AT_ONCE);
    this.addFile(options.userFile, 'user', options.home);
    const trustName = basename(options.trust.file);
    this.trustWatch = new FolderWatch(dirname(options.trust.file), (changed) => {
      if (changed !== undefined && changed !== trustName) return;
      for (const file of this.files.values()) if (file.source === 'project') this.load(file);
    });
  }

  /** Loads (and from now on follows) a project's `.tandem/watchers.toml`; a project already known is left as it is. */
  addProject(folder: string): void {
    const path = join(folder, PROJECT_WATCHERS_FILE);
    if (!this.files.has(path)) this.addFile(path, 'project', folder);
  }

  view(): WatchersView {
    const files = [...this.files.values()];
    return {
      files: files.map((file) => ({ path: file.path, source: file.source, ...(file.error ? { error: file.error } : {}), ...(file.untrusted ? { untrusted: true } : {}) })),
      watchers: files.flatMap((file) => file.watchers.map((watcher) => this.watcherView(watcher))),
    };
  }

  /** Switches a watcher on or off until the engine ends (the file stays as it is). False when there is no such watcher. */
  setEnabled(ref: string | WatcherRef, on: boolean): boolean {
    const watcher = this.find(typeof ref === 'string' ? { name: ref } : ref);
    if (!watcher) return false;
    this.switched.set(switchKey(watcher), on);
    this.restart(watcher);
    this.options.changed?.();
    return true;
  }

  /**
   * A push-to-talk transcript: each enabled voice watcher whose phrase it says is offered a
   * firing. Returns the names of the watchers it was for (the input can say "→ watcher deploy").
   */
  voicePhraseHeard(text: string): string[] {
    const heard: string[] = [];
    for (const watcher of this.active()) {
      if (watcher.config.trigger !== 'voice' || !this.enabled(watcher) || !saysPhrase(text, watcher.config.phrase)) continue;
      watcher.gate.offer({ reason: `heard "${watcher.config.phrase}"`, details: `The user said: "${text}"` });
      heard.push(watcher.config.name);
    }
    return heard;
  }

  dispose(): void {
    this.disposed = true;
    this.trustWatch.dispose();
    for (const file of this.files.values()) {
      file.folderWatch.dispose();
      for (const watcher of file.watchers) this.stop(watcher);
    }
    this.files.clear();
  }

  private addFile(path: string, source: WatcherSource, root: string): void {
    const name = basename(path);
    const file: WatchersFile = { path, source, root, watchers: [], folderWatch: new FolderWatch(dirname(path), (changed) => (changed === undefined || changed === name) && this.load(file)) };
    this.files.set(path, file);
    this.load(file);
  }

  private load(file: WatchersFile): void {
    if (this.disposed) return;
    const read = readWatchersFile(file.path);
    const before = { error: file.error, untrusted: file.untrusted };
    const text = read.kind === 'missing' ? undefined : read.text;
    file.untrusted = file.source === 'project' && text !== undefined && !this.options.trust.isTrusted(file.path, text);
    if (read.kind === 'invalid') {
      file.error = read.error;
      if (file.untrusted) this.replace(file, []);
      if (file.error !== before.error) this.options.log.warning(`${file.path} cannot be used: ${read.error}${file.untrusted ? '' : ' (its last good watchers stay in effect)'}`);
    } else {
      file.error = undefined;
      if (file.untrusted && !before.untrusted) this.options.log.info(`${file.path} is not allowed (or changed since it was): its watchers do nothing until \`tandem watchers allow ${dirname(dirname(file.path))}\``);
      this.replace(file, read.kind === 'valid' && !file.untrusted ? read.watchers : []);
    }
    this.options.changed?.();
  }

  /** Puts `configs` in effect for the file: an unchanged watcher keeps its state; the others start over (keeping when they last fired). */
  private replace(file: WatchersFile, configs: readonly WatcherConfig[]): void {
    const old = new Map(file.watchers.map((watcher) => [watcher.config.name, watcher]));
    file.watchers = configs.map((config) => {
      const existing = old.get(config.name);
      if (existing && isDeepStrictEqual(existing.config, config)) {
        old.delete(config.name);
        return existing;
      }
      if (existing) {
        this.stop(existing);
        old.delete(config.name);
      }
      const watcher = this.create(file, config);
      watcher.lastFired = existing?.lastFired;
      return watcher;
    });
    for (const gone of old.values()) this.stop(gone);
  }

  private create(file: WatchersFile, config: WatcherConfig): ActiveWatcher {
    const cwd = watcherCwd(config, file.root, this.options.home);
    const watcher: ActiveWatcher = {
      config,
      file,
      cwd,
      trigger: undefined,
      gate: new FiringGate({
        debounceMs: config.debounce,
        maxRunsPerHour: config.max_runs_per_hour,
        // A notify firing starts no run: it never waits for a slot, nor holds one.
        slots: config.action === 'notify' ? undefined : this.slots,
        combine: config.trigger === 'file_change' ? combineFileEvents : combineLatest,
        fire: (event) => this.fire(watcher, event),
        holdChanged: (hold) => this.holdChanged(watcher, hold),
      }),
    };
    this.startTrigger(watcher);
    return watcher;
  }

  private startTrigger(watcher: ActiveWatcher): void {
    watcher.inactive = undefined;
    if (!this.enabled(watcher)) return;
    watcher.trigger = startTrigger(
      watcher.config,
      {
        cwd: watcher.cwd,
        home: this.options.home,
        finishedBlocks: this.options.finishedBlocks,
        focusedPane: this.options.focusedPane,
        ownWrite: this.options.ownWrite,
        desktop: this.options.desktop,
        ocr: this.ocr,
        inactive: (why) => {
          if (why === watcher.inactive) return;
          watcher.inactive = why;
          if (why && !why.startsWith('starting')) this.options.log.warning(`watcher ${watcher.config.name}: ${why}`);
          this.options.changed?.();
        },
      },
      (event) => watcher.gate.offer(event),
    );
  }

  private restart(watcher: ActiveWatcher): void {
    watcher.trigger?.dispose();
    watcher.trigger = undefined;
    this.startTrigger(watcher);
  }

  private stop(watcher: ActiveWatcher): void {
    watcher.trigger?.dispose();
    watcher.trigger = undefined;
    watcher.gate.dispose();
  }

  private async fire(watcher: ActiveWatcher, event: TriggerEvent): Promise<void> {
    // Switched off while its events waited: they go with it.
    if (!this.enabled(watcher)) return;
    const at = Date.now();
    watcher.lastFired = { at, reason: event.reason };
    this.options.log.info(`watcher ${watcher.config.name} fired: ${event.reason}`);
    await this.options.onFiring({ watcher: watcher.config, source: watcher.file.source, cwd: watcher.cwd, reason: event.reason, details: scrubSecrets(event.details).text, at });
  }

  private holdChanged(watcher: ActiveWatcher, hold: WatcherHold | undefined): void {
    if (hold) this.options.log.info(`watcher ${watcher.config.name} held back (${hold.kind})`);
    this.options.onHold?.(watcher.config.name, hold);
    this.options.changed?.();
  }

  private watcherView(watcher: ActiveWatcher): WatcherView {
    const { config } = watcher;
    const enabled = this.enabled(watcher);
    const inactive = enabled ? watcher.inactive : undefined;
    const nextRun = enabled ? watcher.trigger?.nextRun?.() : undefined;
    return {
      name: config.name,
      source: watcher.file.source,
      file: watcher.file.path,
      trigger: config.trigger,
      summary: triggerSummary(config, watcher.cwd, this.options.home),
      action: config.action,
      instruction: config.instruction,
      enabled,
      ...(inactive ? { inactive } : {}),
      ...(watcher.lastFired ? { lastFired: watcher.lastFired } : {}),
      ...(nextRun !== undefined ? { nextRun } : {}),
      ...(watcher.gate.held ? { held: watcher.gate.held } : {}),
    };
  }

  private enabled(watcher: ActiveWatcher): boolean {
    return this.switched.get(switchKey(watcher)) ?? watcher.config.enabled;
  }

  private active(): ActiveWatcher[] {
    return [...this.files.values()].flatMap((file) => file.watchers);
  }

  private find({ name, source, file }: WatcherRef): ActiveWatcher | undefined {
    return this.active().find(
      (watcher) => watcher.config.name === name && (source === undefined || watcher.file.source === source) && (file === undefined || watcher.file.path === file),
    );
  }
}

function switchKey(watcher: ActiveWatcher): string {
  return `${watcher.file.path}\0${watcher.config.name}`;
}

/** Events of a block, schedule or voice watcher that waited together: the latest says why, and how many there were. */
function combineLatest(events: readonly TriggerEvent[]): TriggerEvent {
  const latest = events.at(-1)!;
  return events.length === 1 ? latest : { reason: `${latest.reason} (and ${events.length - 1} earlier)`, details: latest.details };
}

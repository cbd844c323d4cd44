import type { Disposable } from '../../shared/events';
import type { Events } from '../../shared/protocol';
import { durationMs } from '../../shared/duration';
import { describeHold, type WatchersView } from '../../shared/watchers';
import type { Desktop } from '../desktop/desktop';
import type { EngineLog } from '../log/engineLog';
import type { PaneWatcher } from '../panes/paneWatcher';
import type { AuditLog } from '../safety/audit/auditLog';
import type { TandemPaths } from '../settings/paths';
import { projectFolderOf } from './projectFolders';
import { ProjectTrust } from './projectTrust';
import { UserBlocks } from './triggers/userBlocks';
import { RunActivity } from './firing/runActivity';
import { RunSlots } from './firing/runSlots';
import { WatcherActions } from './firing/watcherActions';
import { WATCHER_RUNS_AT_ONCE, WatchersService } from './watchersService';

/** The most project folders followed at once (each is one folder watch). */
const MAX_PROJECTS = 64;

export interface EngineWatchersOptions {
  paths: TandemPaths;
  home: string;
  log: EngineLog;
  audit: AuditLog;
  /** What screen_change watchers look with. */
  desktop: Desktop;
  /** The pane the user typed in last. */
  focusedPane(): number | undefined;
  /** The argv that starts `tandem` again (a watcher run is a child agent); undefined: runs cannot start. */
  selfCommand: readonly string[] | undefined;
  env: NodeJS.ProcessEnv;
  /** `[watchers] wait_limit` as config.toml says it now ("1h"). */
  waitLimit(): string;
  /** Tells the window: `watcher.fired`, `watcher.run`, `watcher.waits-for-slot`, `watchers.changed` (what `view()` shows changed). */
  emit<E extends 'watcher.fired' | 'watcher.run' | 'watcher.waits-for-slot' | 'watchers.changed'>(event: E, payload: Events[E]): void;
}

/**
 * The engine's watchers: the user's watchers.toml, and the project `.tandem/watchers.toml`
 * of each folder a pane works in (found from the pane's first directory and each finished
 * block's, up to the git work tree's top: docs/watchers.md "Which project files count").
 */
export class EngineWatchers implements Disposable {
  readonly service: WatchersService;
  /** What a firing does: the notify cards and the runs (docs/watchers.md "What a firing does"). */
  readonly actions: WatcherActions;
  private readonly runActivity = new RunActivity();
  private readonly blocks = new UserBlocks();
  private readonly projects = new Set<string>();
  /** Each pane's subscription that notes the folders its blocks ran in. */
  private readonly paneCwds = new Map<number, Disposable>();

  constructor(private readonly options: EngineWatchersOptions) {
    const { log, audit } = options;
    // One cap for the firings the service starts and for the runs a card's Run starts.
    const slots = new RunSlots(WATCHER_RUNS_AT_ONCE);
    this.actions = new WatcherActions({
      selfCommand: options.selfCommand,
      env: options.env,
      notify: (notification) => options.desktop.notify(notification),
      fired: (event) => options.emit('watcher.fired', event),
      runChanged: (event) => options.emit('watcher.run', event),
      waitsForSlot: (event) => options.emit('watcher.waits-for-slot', event),
      slots,
      waitLimit: () => ({ ms: durationMs(options.waitLimit()) ?? 3_600_000, text: options.waitLimit() }),
      timedOut: (firing, request, reason, limit) => {
        const rule = `No answer within ${limit.text} (watcher:${firing.watcher.name})`;
        void audit.append({ event: 'denied', command: request.command, cwd: firing.cwd, decision: 'deny', decidedBy: { kind: 'headless', rule }, reason, watcher: firing.watcher.name });
        log.info('watchers', `watcher ${firing.watcher.name}: ${reason}`);
      },
      runActive: (cwd, active) => (active ? this.runActivity.started(cwd) : this.runActivity.stopped(cwd)),
      warning: (message) => log.warning('watchers', message),
    });
    this.service = new WatchersService({
      userFile: options.paths.watchersFile,
      home: options.home,
      trust: new ProjectTrust(options.paths.watcherTrustFile),
      slots,
      finishedBlocks: this.blocks.onFinished,
      focusedPane: options.focusedPane,
      ownWrite: (path) => this.runActivity.owns(path),
      desktop: options.desktop,
      changed: () => options.emit('watchers.changed', {}),
      log: { info: (message) => log.info('watchers', message), warning: (message) => log.warning('watchers', message) },
      onHold: (watcher, hold) => {
        if (hold) void audit.append({ event: 'watcher-held', reason: describeHold(hold, (at) => new Date(at).toISOString()), watcher });
      },
      onFiring: async (firing) => {
        await audit.append({ event: 'watcher-fired', cwd: firing.cwd, reason: firing.reason, watcher: firing.watcher.name });
        await this.actions.fire(firing);
      },
    });
  }

  /** Follows a user pane: its finished blocks (for block watchers) and the projects it works in. */
  watchPane(paneId: number, startCwd: string, observe: (watcher: PaneWatcher) => Disposable, outputOf: (blockId: string) => Promise<{ text: string } | undefined>): void {
    this.seen(startCwd);
    this.blocks.watch(paneId, observe, outputOf);
    this.paneCwds.set(paneId, observe({ blockFinished: (block) => this.seen(block.cwd) }));
  }

  unwatchPane(paneId: number): void {
    this.blocks.unwatch(paneId);
    this.paneCwds.get(paneId)?.dispose();
    this.paneCwds.delete(paneId);
  }

  view(): WatchersView {
    return this.service.view();
  }

  dispose(): void {
    for (const paneId of [...this.paneCwds.keys()]) this.unwatchPane(paneId);
    this.blocks.dispose();
    this.service.dispose();
    this.actions.dispose();
  }

  private seen(cwd: string): void {
    if (!cwd || this.projects.size >= MAX_PROJECTS) return;
    const project = projectFolderOf(cwd, this.options.home);
    if (project === undefined || this.projects.has(project)) return;
    this.projects.add(project);
    this.service.addProject(project);
  }
}

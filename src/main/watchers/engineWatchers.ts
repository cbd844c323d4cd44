import type { Disposable } from '../../shared/events';
import { describeHold, type WatchersView } from '../../shared/watchers';
import type { Desktop } from '../desktop/desktop';
import type { EngineLog } from '../log/engineLog';
import type { PaneWatcher } from '../panes/paneWatcher';
import type { AuditLog } from '../safety/audit/auditLog';
import type { TandemPaths } from '../settings/paths';
import { projectFolderOf } from './projectFolders';
import { ProjectTrust } from './projectTrust';
import { UserBlocks } from './triggers/userBlocks';
import type { WatcherFiring } from './watcherFiring';
import { WatchersService } from './watchersService';

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
  /** A firing, for the window (`watcher.fired`). */
  fired(firing: WatcherFiring): void;
  /** What `view()` shows changed, for the window (`watchers.changed`). */
  changed?(): void;
  /**
   * What a firing does (notify / ask / auto). Until that is built, a firing is logged,
   * audited and told to the window, and its run ends at once.
   */
  onFiring?(firing: WatcherFiring): Promise<void>;
}

/**
 * The engine's watchers: the user's watchers.toml, and the project `.tandem/watchers.toml`
 * of each folder a pane works in (found from the pane's first directory and each finished
 * block's, up to the git work tree's top: docs/watchers.md "Which project files count").
 */
export class EngineWatchers implements Disposable {
  readonly service: WatchersService;
  private readonly blocks = new UserBlocks();
  private readonly projects = new Set<string>();
  /** Each pane's subscription that notes the folders its blocks ran in. */
  private readonly paneCwds = new Map<number, Disposable>();

  constructor(private readonly options: EngineWatchersOptions) {
    const { log, audit } = options;
    this.service = new WatchersService({
      userFile: options.paths.watchersFile,
      home: options.home,
      trust: new ProjectTrust(options.paths.watcherTrustFile),
      finishedBlocks: this.blocks.onFinished,
      focusedPane: options.focusedPane,
      desktop: options.desktop,
      changed: options.changed,
      log: { info: (message) => log.info('watchers', message), warning: (message) => log.warning('watchers', message) },
      onHold: (watcher, hold) => {
        if (hold) void audit.append({ event: 'watcher-held', reason: describeHold(hold, (at) => new Date(at).toISOString()), watcher });
      },
      onFiring: async (firing) => {
        await audit.append({ event: 'watcher-fired', cwd: firing.cwd, reason: firing.reason, watcher: firing.watcher.name });
        options.fired(firing);
        await options.onFiring?.(firing);
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
  }

  private seen(cwd: string): void {
    if (!cwd || this.projects.size >= MAX_PROJECTS) return;
    const project = projectFolderOf(cwd, this.options.home);
    if (project === undefined || this.projects.has(project)) return;
    this.projects.add(project);
    this.service.addProject(project);
  }
}

import type { LayoutNode, RestoredLayoutNode, RestoredSession, SessionLayout } from '../../shared/protocol';
import type { EngineLog } from '../log/engineLog';
import { SessionStore, type SavedPane } from './sessionStore';

/** What the session needs of a live pane. */
export interface SessionPane {
  readonly cwd: string;
  readonly shell: string;
  snapshot(scrollback: number): Promise<string>;
}

/**
 * The saved session: the layout and scrollback restored at start, and the saves of the
 * renderer's layout with fresh scrollback. Saves run one after another, so an older layout
 * can never be written last.
 */
export class SessionKeeper {
  private readonly store: SessionStore;
  private readonly problem: string | undefined;
  private lastLayout: SessionLayout | undefined;
  private saving: Promise<void> = Promise.resolve();

  constructor(file: string, restore: boolean, log: EngineLog) {
    this.store = new SessionStore(file);
    this.problem = restore ? this.store.load().error : undefined;
    if (this.problem) log.warning('session', this.problem);
  }

  /** Why the saved session could not be read, if it could not. */
  get error(): string | undefined {
    return this.problem;
  }

  restoredLayout(): RestoredSession | undefined {
    return this.store.restoredLayout();
  }

  /** A saved pane's scrollback, handed out once. */
  takeScrollback(key: string): (SavedPane & { savedAt: number }) | undefined {
    return this.store.takeScrollback(key);
  }

  /** The renderer's layout, for the next save. */
  remember(layout: SessionLayout): void {
    this.lastLayout = layout;
  }

  /** Write the last layout with the panes' scrollback as it is now. */
  save(panes: (paneId: number) => SessionPane | undefined, scrollback: number): Promise<void> {
    const save = this.saving.then(() => this.write(panes, scrollback));
    this.saving = save.catch(() => undefined);
    return save;
  }

  private async write(livePane: (paneId: number) => SessionPane | undefined, scrollback: number): Promise<void> {
    const layout = this.lastLayout;
    if (!layout) return;
    const used = new Set<number>();
    const convert = (node: LayoutNode): RestoredLayoutNode | undefined => {
      if (node.kind === 'pane') {
        const pane = livePane(node.paneId);
        if (!pane) return undefined;
        used.add(node.paneId);
        return { kind: 'pane', restoreKey: `k${node.paneId}`, cwd: pane.cwd, shell: pane.shell };
      }
      const children = node.children.map(convert);
      const kept = children.flatMap((child, index) => (child ? [{ child, size: node.sizes[index] ?? 1 }] : []));
      if (kept.length === 0) return undefined;
      if (kept.length === 1) return kept[0]!.child;
      return { kind: 'split', direction: node.direction, sizes: kept.map((k) => k.size), children: kept.map((k) => k.child) };
    };
    const tabs = layout.tabs.flatMap((tab) => {
      const converted = convert(tab.layout);
      if (!converted) return [];
      const focused = tab.focusedPaneId !== undefined && used.has(tab.focusedPaneId) ? `k${tab.focusedPaneId}` : undefined;
      return [{ title: tab.title, layout: converted, ...(focused ? { focusedRestoreKey: focused } : {}) }];
    });
    const panes: SavedPane[] = [];
    for (const id of used) {
      const pane = livePane(id);
      if (!pane) continue;
      panes.push({ key: `k${id}`, cwd: pane.cwd, shell: pane.shell, scrollback: await pane.snapshot(scrollback) });
    }
    this.store.save({ tabs, activeTab: Math.min(layout.activeTab, Math.max(0, tabs.length - 1)), panes });
  }
}

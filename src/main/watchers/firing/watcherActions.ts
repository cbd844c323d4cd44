import { randomUUID } from 'node:crypto';
import type { Disposable } from '../../../shared/events';
import type { WatcherRunEvents } from '../../../shared/watcherRuns';
import type { WatcherFiredEvent } from '../../../shared/watchers';
import type { ChildApprovalAnswer } from '../../agent/children/childAgents';
import type { DesktopNotification } from '../../desktop/desktop';
import type { WatcherFiring } from '../watcherFiring';
import { WatcherRun } from './watcherRun';

export interface WatcherActionsHost {
  /** The argv that starts `tandem` again; undefined: no run can start here (the firing says why). */
  selfCommand: readonly string[] | undefined;
  env: NodeJS.ProcessEnv;
  notify(notification: DesktopNotification): Promise<void>;
  fired(event: WatcherFiredEvent): void;
  runChanged(event: WatcherRunEvents['watcher.run']): void;
  /** A watcher run's step is running or just ended: its file events are its own (docs/watchers.md "Loops"). */
  runActive?(cwd: string, active: boolean): void;
  warning(message: string): void;
}

/** The most firings kept for the window to act on: the oldest that are not running go first. */
const MOST_FIRINGS = 50;

interface Firing {
  firing: WatcherFiring;
  run?: WatcherRun;
}

/**
 * What a firing does (docs/watchers.md "What a firing does"): `notify` shows a desktop
 * notification and a card that waits for Run or Dismiss; `ask` and `auto` start a run in the
 * watcher's own shell (WatcherRun). The firings and runs the window may still act on are kept
 * by id.
 */
export class WatcherActions implements Disposable {
  private readonly firings = new Map<string, Firing>();

  constructor(private readonly host: WatcherActionsHost) {}

  /** The watchers service's `onFiring`: settles when the firing's run has ended (a notify firing at once). */
  async fire(firing: WatcherFiring): Promise<void> {
    const firingId = randomUUID();
    const { watcher, source, reason, at } = firing;
    this.firings.set(firingId, { firing });
    this.forgetOldest();
    this.host.fired({ firingId, name: watcher.name, source, action: watcher.action, reason, at });
    if (watcher.action === 'notify') {
      this.notify(`Watcher ${watcher.name} fired`, reason);
      return;
    }
    await this.start(firingId, watcher.action);
  }

  /** A notify card's Run: the run starts as `ask` would start it. */
  run(firingId: string): void {
    const entry = this.firings.get(firingId);
    if (!entry) throw new Error('That watcher firing is gone (dismissed, or Tandem restarted).');
    if (entry.run) throw new Error('That watcher firing has already started its run.');
    const { name } = entry.firing.watcher;
    const { source } = entry.firing;
    // One run per watcher at a time, as for the firings the service starts.
    if ([...this.firings.values()].some((other) => other.firing.source === source && other.firing.watcher.name === name && other.run && live(other.run))) throw new Error(`A run of watcher ${name} is still going: stop it first, or wait for it to end.`);
    void this.start(firingId, 'ask');
  }

  dismiss(firingId: string): void {
    const entry = this.firings.get(firingId);
    if (!entry) return;
    entry.run?.stop();
    this.firings.delete(firingId);
    this.changed(firingId, entry, null);
  }

  answer(firingId: string, requestId: string, answer: ChildApprovalAnswer): void {
    const run = this.firings.get(firingId)?.run;
    if (!run) throw new Error('That watcher run is no longer there.');
    run.answer(requestId, answer);
  }

  dispose(): void {
    for (const entry of this.firings.values()) entry.run?.stop();
    this.firings.clear();
  }

  private async start(firingId: string, mode: 'ask' | 'auto'): Promise<void> {
    const entry = this.firings.get(firingId)!;
    const self = this.host.selfCommand;
    const name = entry.firing.watcher.name;
    if (!self) {
      this.host.warning(`watcher ${name}: its run cannot start, this Tandem does not know how to start itself here`);
      return;
    }
    const cwd = entry.firing.cwd;
    this.host.runActive?.(cwd, true);
    const run = new WatcherRun(entry.firing, mode, {
      selfCommand: self,
      env: this.host.env,
      // A dismissed run's last changes (its end) no longer reach the window: its card is gone.
      changed: (view) => this.firings.has(firingId) && this.changed(firingId, entry, view),
      asks: (request) => this.notify(`Watcher ${name} waits for you`, request.command),
    });
    entry.run = run;
    this.changed(firingId, entry, run.view);
    try {
      await run.done;
    } finally {
      this.host.runActive?.(cwd, false);
    }
  }

  private forgetOldest(): void {
    for (const [firingId, entry] of this.firings) {
      if (this.firings.size <= MOST_FIRINGS) return;
      if (!entry.run || !live(entry.run)) this.firings.delete(firingId);
    }
  }

  private changed(firingId: string, entry: Firing, run: WatcherRun['view'] | null): void {
    const { watcher, reason } = entry.firing;
    this.host.runChanged({ firingId, name: watcher.name, action: watcher.action, reason, run: run && structuredClone(run) });
  }

  private notify(title: string, body: string): void {
    this.host.notify({ title, body }).catch((error: unknown) => this.host.warning(`a desktop notification could not be shown: ${error instanceof Error ? error.message : String(error)}`));
  }
}

function live(run: WatcherRun): boolean {
  return run.view.state === 'starting' || run.view.state === 'running';
}

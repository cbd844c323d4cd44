import { randomUUID } from 'node:crypto';
import type { Disposable } from '../../../shared/events';
import type { WatcherCardView, WatcherRunEvents } from '../../../shared/watcherRuns';
import type { WatcherFiredEvent } from '../../../shared/watchers';
import type { ChildApprovalAnswer, ChildApprovalRequest } from '../../agent/children/childAgents';
import type { DesktopNotification } from '../../desktop/desktop';
import type { WatcherFiring } from '../watcherFiring';
import type { RunSlots } from './runSlots';
import { WatcherRun, type WaitLimit } from './watcherRun';

export interface WatcherActionsHost {
  /** The argv that starts `tandem` again; undefined: no run can start here (the firing says why). */
  selfCommand: readonly string[] | undefined;
  env: NodeJS.ProcessEnv;
  notify(notification: DesktopNotification): Promise<void>;
  fired(event: WatcherFiredEvent): void;
  runChanged(event: WatcherRunEvents['watcher.run']): void;
  waitsForSlot(event: WatcherRunEvents['watcher.waits-for-slot']): void;
  /** The cap on watcher runs at once, shared with the firings the watchers service starts. */
  slots: RunSlots;
  /** How long a step of a run waits for an answer (`[watchers] wait_limit`), read when it starts waiting. */
  waitLimit(): WaitLimit;
  /** Nobody answered a step within the wait limit: it was denied and the run ended (for the audit). */
  timedOut(firing: WatcherFiring, request: ChildApprovalRequest, reason: string, limit: WaitLimit): void;
  /** A watcher run's step is running or just ended: its file events are its own (docs/watchers.md "Loops"). */
  runActive?(cwd: string, active: boolean): void;
  warning(message: string): void;
}

/** The most firings kept for the window to act on: the oldest that are not running go first. */
const MOST_FIRINGS = 50;

interface Firing {
  firing: WatcherFiring;
  run?: WatcherRun;
  /** Run was pressed while every run slot was taken: called when one frees. */
  waitingForSlot?: () => void;
}

/**
 * What a firing does (docs/watchers.md "What a firing does"): `notify` shows a desktop
 * notification and a card that waits for Run or Dismiss; `ask` and `auto` start a run in the
 * watcher's own shell (WatcherRun). The firings and runs the window may still act on are kept
 * by id: they are the panel's cards, which a window gets again when it (re)connects (`cards`).
 * A run started with Run takes a run slot like any other, and waits for one when all are taken.
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
    if (entry.waitingForSlot) throw new Error('That watcher firing already waits for a free run slot.');
    const { name } = entry.firing.watcher;
    const { source } = entry.firing;
    // One run per watcher at a time, as for the firings the service starts.
    if ([...this.firings.values()].some((other) => other.firing.source === source && other.firing.watcher.name === name && (other.waitingForSlot || (other.run && live(other.run)))))
      throw new Error(`A run of watcher ${name} is still going: stop it first, or wait for it to end.`);
    this.startInSlot(firingId, entry);
  }

  /** The cards a window shows: notify firings not yet run or dismissed, and runs until their card is closed. */
  cards(): WatcherCardView[] {
    return [...this.firings].filter(([, entry]) => entry.firing.watcher.action === 'notify' || entry.run).map(([firingId, entry]) => this.card(firingId, entry));
  }

  dismiss(firingId: string): void {
    const entry = this.firings.get(firingId);
    if (!entry) return;
    if (entry.waitingForSlot) this.host.slots.forget(entry.waitingForSlot);
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
    for (const entry of this.firings.values()) {
      if (entry.waitingForSlot) this.host.slots.forget(entry.waitingForSlot);
      entry.run?.stop();
    }
    this.firings.clear();
  }

  private startInSlot(firingId: string, entry: Firing): void {
    const { slots } = this.host;
    if (slots.full) {
      entry.waitingForSlot ??= () => this.firings.has(firingId) && this.startInSlot(firingId, entry);
      slots.waitFor(entry.waitingForSlot);
      this.host.waitsForSlot({ firingId, limit: slots.size });
      return;
    }
    entry.waitingForSlot = undefined;
    slots.take();
    void this.start(firingId, 'ask').finally(() => slots.release());
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
      waitLimit: () => this.host.waitLimit(),
      timedOut: (request, reason, limit) => this.host.timedOut(entry.firing, request, reason, limit),
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
      if (!entry.waitingForSlot && (!entry.run || !live(entry.run))) this.firings.delete(firingId);
    }
  }

  private changed(firingId: string, entry: Firing, run: WatcherRun['view'] | null): void {
    const { watcher, reason } = entry.firing;
    this.host.runChanged({ firingId, name: watcher.name, action: watcher.action, reason, run: run && structuredClone(run) });
  }

  private card(firingId: string, entry: Firing): WatcherCardView {
    const { watcher, reason } = entry.firing;
    return {
      firingId,
      name: watcher.name,
      action: watcher.action,
      reason,
      ...(entry.run ? { run: structuredClone(entry.run.view) } : {}),
      ...(entry.waitingForSlot ? { waitsForSlot: { limit: this.host.slots.size } } : {}),
    };
  }

  private notify(title: string, body: string): void {
    this.host.notify({ title, body }).catch((error: unknown) => this.host.warning(`a desktop notification could not be shown: ${error instanceof Error ? error.message : String(error)}`));
  }
}

function live(run: WatcherRun): boolean {
  return run.view.state === 'starting' || run.view.state === 'running';
}

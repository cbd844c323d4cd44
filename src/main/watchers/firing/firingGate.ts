import type { WatcherHold } from '../../../shared/watchers';
import type { RunSlots } from './runSlots';

const HOUR_MS = 3_600_000;

/** What a trigger saw: one event (a file saved, a block finished, a cron tick). */
export interface TriggerEvent {
  /** For the user: "src/a.ts changed", "npm test exited 1". */
  reason: string;
  /** For the model, already scrubbed of secrets: the changed paths, the command and its output excerpt. */
  details: string;
}

export interface FiringGateOptions {
  debounceMs: number;
  maxRunsPerHour: number;
  /** The global run slots; undefined for a watcher whose firing starts no run (`notify`). */
  slots: RunSlots | undefined;
  /** Several events that waited together, as one (a trigger's own way: the changed paths united). */
  combine(events: readonly TriggerEvent[]): TriggerEvent;
  /** The gate let a firing through; the run it starts is live until the promise settles. */
  fire(event: TriggerEvent): Promise<void>;
  /** The firing is held back, or no longer (undefined). */
  holdChanged?(hold: WatcherHold | undefined): void;
}

/**
 * When a watcher's trigger events become firings (docs/watchers.md "What holds a firing
 * back"): events are debounced (trailing) into one; a run of the watcher still going keeps
 * one firing waiting; at most `maxRunsPerHour` firings in any sliding hour; and no more
 * watcher runs at once than the global slots allow. Events that wait merge into the firing
 * that finally goes, so nothing seen is lost from its reason.
 */
export class FiringGate {
  private pending: TriggerEvent[] = [];
  private debounceTimer: NodeJS.Timeout | undefined;
  private rateTimer: NodeJS.Timeout | undefined;
  private runningSince: number | undefined;
  /** When each firing of the last hour went. */
  private firedAt: number[] = [];
  private hold: WatcherHold | undefined;
  private disposed = false;
  private readonly retry = () => this.tryFire();

  constructor(private readonly options: FiringGateOptions) {}

  get held(): WatcherHold | undefined {
    return this.hold;
  }

  get running(): boolean {
    return this.runningSince !== undefined;
  }

  offer(event: TriggerEvent): void {
    if (this.disposed) return;
    this.pending.push(event);
    if (this.pending.length > 50) this.pending = [this.options.combine(this.pending)];
    clearTimeout(this.debounceTimer);
    this.debounceTimer = setTimeout(() => {
      this.debounceTimer = undefined;
      this.tryFire();
    }, this.options.debounceMs);
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.debounceTimer);
    clearTimeout(this.rateTimer);
    this.options.slots?.forget(this.retry);
    this.pending = [];
  }

  private tryFire(): void {
    if (this.disposed || this.pending.length === 0 || this.debounceTimer !== undefined) return;
    const now = Date.now();
    if (this.runningSince !== undefined) return this.setHold({ kind: 'running', since: this.runningSince });
    this.firedAt = this.firedAt.filter((at) => at > now - HOUR_MS);
    if (this.firedAt.length >= this.options.maxRunsPerHour) {
      const until = this.firedAt[0]! + HOUR_MS;
      clearTimeout(this.rateTimer);
      this.rateTimer = setTimeout(() => {
        this.rateTimer = undefined;
        this.tryFire();
      }, until - now);
      return this.setHold({ kind: 'rate', until, limit: this.options.maxRunsPerHour });
    }
    const { slots } = this.options;
    if (slots?.full) {
      slots.waitFor(this.retry);
      return this.setHold({ kind: 'busy', limit: slots.size });
    }
    const event = this.options.combine(this.pending);
    this.pending = [];
    this.firedAt.push(now);
    this.runningSince = now;
    slots?.take();
    this.setHold(undefined);
    let run: Promise<void>;
    try {
      run = this.options.fire(event);
    } catch (error) {
      run = Promise.reject(error);
    }
    // A run that failed has ended all the same; the caller reports its failure.
    run.catch(() => undefined).finally(() => this.runEnded());
  }

  private runEnded(): void {
    this.runningSince = undefined;
    this.options.slots?.release();
    if (this.pending.length === 0) this.setHold(undefined);
    this.tryFire();
  }

  private setHold(hold: WatcherHold | undefined): void {
    const same = JSON.stringify(hold) === JSON.stringify(this.hold);
    this.hold = hold;
    if (!same) this.options.holdChanged?.(hold);
  }
}

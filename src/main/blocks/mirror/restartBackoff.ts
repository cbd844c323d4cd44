/** When the mirror thread is started again after it died, and when it is given up on. */
export interface RestartPolicy {
  /** The wait before the first restart after a failure; it doubles with each failure in a row. */
  firstDelayMs: number;
  /** The wait never grows past this. */
  maxDelayMs: number;
  /** This many failures within `windowMs` and the thread stays off. */
  maxFailures: number;
  windowMs: number;
}

/**
 * A thread that cannot load (its file missing from an app.asar, a broken bundle) fails again
 * at once: started 0.1, 0.2, 0.4, 0.8 s apart, it is given up on at its 5th failure, about
 * 1.5 s and 5 thread starts after the first, instead of starting ~20 times a second. A thread
 * that crashes once after working (an xterm bug on some output) is back 0.1 s later.
 */
export const MIRROR_RESTART_POLICY: RestartPolicy = {
  firstDelayMs: 100,
  maxDelayMs: 5_000,
  maxFailures: 5,
  windowMs: 60_000,
};

/**
 * Counts a thread's failures: the wait before each restart (doubling while it fails without
 * ever getting going), and the verdict to stop once too many fall within the window. Once
 * given up, it stays given up.
 */
export class RestartBackoff {
  private recent: number[] = [];
  private inARow = 0;
  private stopped = false;

  constructor(
    private readonly policy: RestartPolicy,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get gaveUp(): boolean {
    return this.stopped;
  }

  /** Failures within the window, the last one included. */
  get recentFailures(): number {
    return this.recent.length;
  }

  /** The thread got going: the next failure waits the first delay again (the window still counts it). */
  succeeded(): void {
    this.inARow = 0;
  }

  /** A failure now: the wait before the next start, or undefined to give up. */
  failed(): number | undefined {
    if (this.stopped) return undefined;
    const now = this.now();
    this.recent = this.recent.filter((time) => now - time < this.policy.windowMs);
    this.recent.push(now);
    if (this.recent.length >= this.policy.maxFailures) {
      this.stopped = true;
      return undefined;
    }
    const delay = Math.min(this.policy.maxDelayMs, this.policy.firstDelayMs * 2 ** this.inARow);
    this.inARow++;
    return delay;
  }
}

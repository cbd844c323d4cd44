/** The longest the panel's update and the audit lines wait for a typed step's echo. */
const ECHO_WAIT_MS = 50;

/**
 * Keystrokes first: once a step's keys are written to its shell, the plan's other work (the
 * panel's update, audit lines, the trace's bookkeeping, the answer to the decision's request)
 * waits until the shell has echoed them, so none of it holds the engine's main thread while
 * the echo is on its way back. Building and sending the panel's view after a decision took
 * 1–2 ms there and delayed the echo by as much (docs/architecture.md, "Where the time goes").
 *
 * A decision on a step holds the work from the start; if it typed nothing by the end of its
 * turn of the event loop (the step waits for a prompt or for other decisions), the work goes
 * at once. The echo is read before the output batcher sends it on the next check phase; the
 * work follows a timer turn later. ECHO_WAIT_MS at most, whatever the shell does.
 */
export class EchoFirst {
  private waiting: (() => void)[] | undefined;
  private typed = false;
  private timer: NodeJS.Timeout | undefined;

  /** Runs `work` now, or after the echo while a step's keys are on their way. */
  run(work: () => void): void {
    if (this.waiting) this.waiting.push(work);
    else work();
  }

  /** Resolves once what waits now has been done (at once when nothing waits). */
  passed(): Promise<void> {
    return new Promise((resolve) => this.run(resolve));
  }

  /** A decision that may type a step at once. */
  decided(): void {
    if (this.waiting) return;
    this.hold();
    const held = this.waiting;
    setImmediate(() => {
      if (this.waiting === held && !this.typed) this.release();
    });
  }

  /** A step's keys were written to its shell. */
  keysWritten(): void {
    if (!this.waiting) this.hold();
    this.typed = true;
  }

  /** The shell answered the keys (their echo, or the command's start): what waited follows the echo out. */
  echoed(): void {
    const held = this.waiting;
    if (!held) return;
    setTimeout(() => {
      if (this.waiting === held) this.release();
    }, 0);
  }

  /** Everything that waited, now (the plan is being disposed of, or the wait is over). */
  release(): void {
    clearTimeout(this.timer);
    const waiting = this.waiting ?? [];
    this.waiting = undefined;
    this.typed = false;
    for (const work of waiting) work();
  }

  private hold(): void {
    this.waiting = [];
    this.typed = false;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.release(), ECHO_WAIT_MS);
  }
}

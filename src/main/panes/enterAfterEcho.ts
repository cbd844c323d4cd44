/** How long Enter waits for a shell that does not echo the line (it always should at a prompt). */
const ECHO_WAIT_MS = 20;

type Keys = Uint8Array | string;

/** What happens around a typed command's Enter. */
export interface EnterHooks {
  /**
   * Right before Enter: the work a command must find done before it runs (its environment
   * file, a look at Tandem's own files) goes here, after the line's echo, not between the
   * decision and the keys.
   */
  beforeEnter?: () => void;
  /** Enter was written. */
  pressed: () => void;
}

/**
 * A typed command's Enter, pressed once the shell has echoed the line and the client has that
 * echo, as a person presses Enter once the line is on the screen. With Enter already waiting
 * behind the line, bash with our integration echoed the line only as it ran Enter's binding:
 * 1.3 ms after the keys at the median and several ms at p95 on the bench machine, where the
 * line alone is echoed in 0.2 ms. And with Enter right after the echo was sent, the command's
 * start (the shell's work, the engine's on its marks) took the CPUs the client needed to read
 * the echo (docs/architecture.md, "Where the time goes"). ECHO_WAIT_MS after the line at most,
 * whatever the shell or the client does.
 *
 * The user's keys that come meanwhile are held and follow Enter, so nothing lands inside the
 * command line. Until Enter, the line runs nothing, so what must happen before the command
 * can wait for the echo too (`beforeEnter`).
 */
export class EnterAfterEcho {
  private pending: { enter: string; hooks: EnterHooks; timer: NodeJS.Timeout; stopWaiting?: () => void } | undefined;
  private held: Keys[] = [];

  /**
   * `write`: keys to the shell; `userKeys`: the user's held keys, once Enter is in;
   * `clientCaughtUp`: calls back once the client has all output read so far (PaneDelivery's
   * whenCaughtUp), returning a cancel.
   */
  constructor(
    private readonly write: (keys: string) => void,
    private readonly userKeys: (keys: Keys) => void,
    private readonly clientCaughtUp: (then: () => void) => () => void,
  ) {}

  get waiting(): boolean {
    return this.pending !== undefined;
  }

  /** Types `line`, then `enter` once the shell answers (or ECHO_WAIT_MS have passed), between the hooks. */
  type(line: string, enter: string, hooks: EnterHooks): void {
    this.press();
    if (line === '') {
      hooks.beforeEnter?.();
      this.write(enter);
      hooks.pressed();
      return;
    }
    this.write(line);
    this.pending = { enter, hooks, timer: setTimeout(() => this.press(), ECHO_WAIT_MS) };
  }

  /** Output from the shell (the line's echo, sent on at once): Enter follows once the client has it. */
  output(): void {
    if (!this.pending || this.pending.stopWaiting) return;
    this.pending.stopWaiting = this.clientCaughtUp(() => this.press());
  }

  /** The user's keys: held while Enter waits (true), else theirs to write (false). */
  hold(keys: Keys): boolean {
    if (!this.pending) return false;
    this.held.push(keys);
    return true;
  }

  /** The shell is gone: nothing more goes to it. */
  dispose(): void {
    if (this.pending) this.cancelTimers(this.pending);
    this.pending = undefined;
    this.held = [];
  }

  private press(): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = undefined;
    this.cancelTimers(pending);
    pending.hooks.beforeEnter?.();
    this.write(pending.enter);
    pending.hooks.pressed();
    const held = this.held;
    this.held = [];
    for (const keys of held) this.userKeys(keys);
  }

  private cancelTimers(pending: { timer: NodeJS.Timeout; stopWaiting?: () => void }): void {
    clearTimeout(pending.timer);
    pending.stopWaiting?.();
  }
}

/** How long Enter waits for a shell that does not echo the line (it always should at a prompt). */
const ECHO_WAIT_MS = 20;

type Keys = Uint8Array | string;

/**
 * A typed command's Enter, pressed once the shell has echoed the line. With Enter already
 * waiting behind the line, bash with our integration echoed the line only as it ran Enter's
 * binding: 1.3 ms after the keys at the median and several ms at p95 on the bench machine,
 * where the line alone is echoed in 0.2 ms (docs/architecture.md, "Where the time goes").
 * The user's keys that come meanwhile are held and follow Enter, so nothing lands inside the
 * command line.
 */
export class EnterAfterEcho {
  private pending: { enter: string; pressed: () => void; timer: NodeJS.Timeout; soon?: NodeJS.Immediate } | undefined;
  private held: Keys[] = [];

  /** `write`: keys to the shell; `userKeys`: the user's held keys, once Enter is in. */
  constructor(
    private readonly write: (keys: string) => void,
    private readonly userKeys: (keys: Keys) => void,
  ) {}

  get waiting(): boolean {
    return this.pending !== undefined;
  }

  /** Types `line`, then `enter` once the shell answers (or ECHO_WAIT_MS have passed); `pressed` after Enter. */
  type(line: string, enter: string, pressed: () => void): void {
    this.press();
    if (line === '') {
      this.write(enter);
      pressed();
      return;
    }
    this.write(line);
    this.pending = { enter, pressed, timer: setTimeout(() => this.press(), ECHO_WAIT_MS) };
  }

  /**
   * Output from the shell: the line's echo. Enter follows on the next check phase, after the
   * output batcher has sent the echo on: the shell's work on Enter (its binding, a fork or
   * two) must not compete with that.
   */
  output(): void {
    if (!this.pending || this.pending.soon) return;
    this.pending.soon = setImmediate(() => this.press());
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
    this.write(pending.enter);
    pending.pressed();
    const held = this.held;
    this.held = [];
    for (const keys of held) this.userKeys(keys);
  }

  private cancelTimers(pending: { timer: NodeJS.Timeout; soon?: NodeJS.Immediate }): void {
    clearTimeout(pending.timer);
    if (pending.soon) clearImmediate(pending.soon);
  }
}

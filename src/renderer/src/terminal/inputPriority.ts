import { BACKGROUND_INTERVAL_MS, BACKGROUND_SLICE_BYTES, KEY_HOLD_MS, TYPING_MS } from './flowPolicy';

/**
 * Keystroke first. The page has one main thread (and, without a GPU, the raster and
 * compositor threads share the CPU with everything else), so another pane's flood — parsing
 * and drawing it — would make every key wait its turn. So:
 *
 * - For a moment after a key, output for the other panes waits in their queues (flow control
 *   holds the rest in the engine) until the typed-in pane has written output (normally its
 *   echo), KEY_HOLD_MS at the latest.
 * - While the user types (a key within TYPING_MS), the other panes get BACKGROUND_SLICE_BYTES
 *   of output per BACKGROUND_INTERVAL_MS: a flooding pane next to the one you type in moves
 *   once a second, and is back at full speed TYPING_MS after the last key. A slice is bytes,
 *   not writes: a prompt the engine sends in two frames (cut at a mark) costs one slice.
 * - While the user types, the page is told (`onTypingChange`), so that nothing on it animates:
 *   a running block's gutter animation drew a frame every 16 ms, each holding the main thread
 *   about 5 ms, and an echo arriving during one waited for it (docs/architecture.md).
 *
 * One instance serves every pane of the page (app/engine.ts).
 */
export class InputPriority {
  private typingPane: number | undefined;
  private lastKeyAt = -Infinity;
  /** The typed-in pane has not written since the last key (and KEY_HOLD_MS has not passed). */
  private holding = false;
  private holdTimer: number | undefined;
  private wakeTimer: number | undefined;
  /** Each background pane's slice of this interval: when it began and the bytes left. */
  private readonly slices = new Map<number, { at: number; left: number }>();
  private readonly waiting = new Set<() => void>();
  private typingTimer: number | undefined;

  constructor(private readonly onTypingChange: (typing: boolean) => void = () => undefined) {}

  /** A key (or paste) was sent to `paneId`. */
  noteKeystroke(paneId: number): void {
    this.typingPane = paneId;
    this.lastKeyAt = performance.now();
    this.holding = true;
    window.clearTimeout(this.holdTimer);
    this.holdTimer = window.setTimeout(() => this.endHold(), KEY_HOLD_MS);
    if (this.typingTimer === undefined) this.onTypingChange(true);
    window.clearTimeout(this.typingTimer);
    this.typingTimer = window.setTimeout(() => {
      this.typingTimer = undefined;
      this.onTypingChange(false);
    }, TYPING_MS);
    // A pane that was waiting as a background pane may be the one typed in now: it goes at once.
    this.wake();
  }

  /**
   * How many bytes of output `paneId` may hand to xterm now: Infinity, what is left of its
   * slice, or 0 (wait with whenWritable). Writing uses the slice up (outputWritten).
   */
  writeAllowance(paneId: number): number {
    if (this.typingPane === undefined || paneId === this.typingPane) return Infinity;
    if (this.holding) return 0;
    const now = performance.now();
    if (now - this.lastKeyAt >= TYPING_MS) {
      this.typingPane = undefined;
      this.slices.clear();
      return Infinity;
    }
    let slice = this.slices.get(paneId);
    if (!slice || now - slice.at >= BACKGROUND_INTERVAL_MS) {
      slice = { at: now, left: BACKGROUND_SLICE_BYTES };
      this.slices.set(paneId, slice);
    }
    return slice.left;
  }

  /** Runs `callback` once `writeAllowance` may have changed (it asks again). */
  whenWritable(callback: () => void): void {
    this.waiting.add(callback);
    if (this.holding || this.wakeTimer !== undefined) return;
    // When a pane's next slice is due, or typing mode ends, whichever comes first.
    let due = this.lastKeyAt + TYPING_MS;
    for (const { at } of this.slices.values()) due = Math.min(due, at + BACKGROUND_INTERVAL_MS);
    this.wakeTimer = window.setTimeout(() => this.wake(), Math.max(1, due - performance.now()));
  }

  /** `paneId` has written `bytes` of output: off its slice; if it is the pane being typed in, its echo is on screen. */
  outputWritten(paneId: number, bytes: number): void {
    const slice = this.slices.get(paneId);
    if (slice) slice.left = Math.max(0, slice.left - bytes);
    if (paneId === this.typingPane && this.holding) this.endHold();
  }

  private endHold(): void {
    this.holding = false;
    window.clearTimeout(this.holdTimer);
    this.holdTimer = undefined;
    this.wake();
  }

  private wake(): void {
    window.clearTimeout(this.wakeTimer);
    this.wakeTimer = undefined;
    const callbacks = [...this.waiting];
    this.waiting.clear();
    for (const callback of callbacks) callback();
  }
}

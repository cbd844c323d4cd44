/**
 * Keystroke first. The page has one main thread (and, without a GPU, the raster and
 * compositor threads share the CPU with everything else), so another pane's flood — parsing
 * and drawing it — would make every key wait its turn. So:
 *
 * - For a moment after a key, output for the other panes waits in their queues (flow control
 *   holds the rest in the engine) until the typed-in pane has written output (normally its
 *   echo), HOLD_MS at the latest.
 * - While the user types (a key within TYPING_MS), the other panes get their output in
 *   slices of BACKGROUND_SLICE_BYTES, one per BACKGROUND_INTERVAL_MS: a flooding pane next
 *   to the one you type in moves once a second, and is back at full speed TYPING_MS after
 *   the last key. Measured: 20 slices a second still doubled the echo's p95 (each redraw
 *   of a flooding pane costs milliseconds of CPU across threads); one a second does not.
 */
const HOLD_MS = 40;
const TYPING_MS = 1_000;
const BACKGROUND_SLICE_BYTES = 4 * 1024;
const BACKGROUND_INTERVAL_MS = 1_000;

let typingPane: number | undefined;
let lastKeyAt = -Infinity;
/** The typed-in pane has not written since the last key (and HOLD_MS has not passed). */
let holding = false;
let holdTimer: number | undefined;
let wakeTimer: number | undefined;
const lastSliceAt = new Map<number, number>();
const waiting = new Set<() => void>();

/** A key (or paste) was sent to `paneId`. */
export function noteKeystroke(paneId: number): void {
  typingPane = paneId;
  lastKeyAt = performance.now();
  holding = true;
  window.clearTimeout(holdTimer);
  holdTimer = window.setTimeout(endHold, HOLD_MS);
  // A pane that was waiting as a background pane may be the one typed in now: it goes at once.
  wake();
}

/**
 * How many bytes of output `paneId` may hand to xterm now: Infinity, a slice, or 0 (wait
 * with whenWritable). Asking for a slice uses it up.
 */
export function writeAllowance(paneId: number): number {
  if (typingPane === undefined || paneId === typingPane) return Infinity;
  if (holding) return 0;
  const now = performance.now();
  if (now - lastKeyAt >= TYPING_MS) {
    typingPane = undefined;
    lastSliceAt.clear();
    return Infinity;
  }
  if (now - (lastSliceAt.get(paneId) ?? -Infinity) < BACKGROUND_INTERVAL_MS) return 0;
  lastSliceAt.set(paneId, now);
  return BACKGROUND_SLICE_BYTES;
}

/** Runs `callback` once `writeAllowance` may have changed (it asks again). */
export function whenWritable(callback: () => void): void {
  waiting.add(callback);
  if (holding || wakeTimer !== undefined) return;
  // When a pane's next slice is due, or typing mode ends, whichever comes first.
  let due = lastKeyAt + TYPING_MS;
  for (const at of lastSliceAt.values()) due = Math.min(due, at + BACKGROUND_INTERVAL_MS);
  wakeTimer = window.setTimeout(wake, Math.max(1, due - performance.now()));
}

/** `paneId` finished writing output: if it is the pane being typed in, its echo is on screen. */
export function outputWritten(paneId: number): void {
  if (paneId === typingPane && holding) endHold();
}

function endHold(): void {
  holding = false;
  window.clearTimeout(holdTimer);
  holdTimer = undefined;
  wake();
}

function wake(): void {
  window.clearTimeout(wakeTimer);
  wakeTimer = undefined;
  const callbacks = [...waiting];
  waiting.clear();
  for (const callback of callbacks) callback();
}

/**
 * Keystroke first. For a moment after a key goes to a pane, output for the other panes waits
 * in their queues (flow control holds the rest in the engine), so the page's main thread is
 * free when the echo comes back instead of parsing and rendering another pane's flood. The
 * hold ends as soon as the typed-in pane has written output (normally its echo), and after
 * HOLD_MS at the latest, so a flooding pane is slowed, never stopped.
 */
const HOLD_MS = 40;

let typingPane: number | undefined;
let holdTimer: number | undefined;
const waiting = new Set<() => void>();

/** A key (or paste) was sent to `paneId`. */
export function noteKeystroke(paneId: number): void {
  typingPane = paneId;
  window.clearTimeout(holdTimer);
  holdTimer = window.setTimeout(release, HOLD_MS);
}

/** Whether `paneId` may hand output to xterm now. */
export function mayWrite(paneId: number): boolean {
  return typingPane === undefined || typingPane === paneId;
}

/** Runs `callback` once other panes may write again. */
export function whenWritable(callback: () => void): void {
  waiting.add(callback);
}

/** `paneId` finished writing output: if it is the pane being typed in, its echo is on screen. */
export function outputWritten(paneId: number): void {
  if (paneId === typingPane) release();
}

function release(): void {
  typingPane = undefined;
  window.clearTimeout(holdTimer);
  holdTimer = undefined;
  const callbacks = [...waiting];
  waiting.clear();
  for (const callback of callbacks) callback();
}

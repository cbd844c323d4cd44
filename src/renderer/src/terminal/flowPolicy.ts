/**
 * The renderer's tuned numbers for getting output on screen, in one place with why they are
 * what they are (the engine's side is src/main/pty/flowPolicy.ts). Measured with
 * `npm run bench`; quote it when you change one.
 */

/**
 * After a key, output for the other panes waits until the typed-in pane has written output
 * (normally its echo), this long at most: long enough for an echo, short enough that a
 * second pane's output never looks stuck.
 */
export const KEY_HOLD_MS = 40;

/** A key within this long means the user is typing; the other panes then get slices only. */
export const TYPING_MS = 1_000;

/**
 * While the user types, each other pane gets one slice of this many bytes per interval: a
 * flooding pane next to the one typed in still moves, once a second. Measured: 20 slices a
 * second still doubled the echo's p95 (each redraw of a flooding pane costs milliseconds of
 * CPU across the page's threads); one a second does not.
 */
export const BACKGROUND_SLICE_BYTES = 4 * 1024;
export const BACKGROUND_INTERVAL_MS = 1_000;

/** Beyond this, output for a pane nobody claims is dropped; the engine's flow control has paused it anyway. */
export const MAX_UNCLAIMED_BYTES = 8 * 1024 * 1024;

/** A pane refits to its box after resizing stops for this long (each fit resizes the pty). */
export const FIT_DEBOUNCE_MS = 40;

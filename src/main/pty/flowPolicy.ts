/**
 * Every tuned number of the engine's output path in one place, with why it is what it is.
 * They were measured with `npm run bench` on a 2-core machine; change them there, and quote
 * the bench when you do (docs/architecture.md describes the path they tune).
 */

export interface Watermarks {
  /** The window is full once this many bytes are outstanding. */
  high: number;
  /** A full window opens again below this. */
  low: number;
}

/**
 * The renderer's window: the unparsed output xterm may have queued. About 250 KB keeps the
 * page busy between acks; a smaller window lost throughput even with read-ahead (128 KB:
 * 68–72% of the reference page), and 50 KB resume made a flood stutter. The bench's
 * reference page uses the same window (bench/lib/referenceServer.js imports this).
 */
export const RENDERER_WINDOW: Watermarks = { high: 250_000, low: 150_000 };

/**
 * The mirror thread parses quickly; it only holds the pty back when far behind (a stalled
 * worker), never in normal use.
 */
export const MIRROR_WINDOW: Watermarks = { high: 8 * 1024 * 1024, low: 1024 * 1024 };

/** A window with less room than this counts as full: a frame that small is not worth sending. */
export const SMALLEST_FRAME = 4096;

/**
 * The batcher: a lone chunk goes on the next turn of the event loop; a burst at most every
 * BATCH_DELAY_MS, in frames of at most BATCH_MAX_BYTES (never more than the window's room).
 * 5 ms is below what a typist notices and lets a flood fill frames of ~100 KB.
 */
export const BATCH_DELAY_MS = 5;
export const BATCH_MAX_BYTES = 200 * 1024;

/**
 * xterm's parse time is dominated by line feeds: `yes` (3 bytes a line) parses at 7 MB/s,
 * `seq` at 14–15, a coloured log at 35–39 (@xterm/headless). So read-ahead counts each line
 * as this many bytes more than it has.
 */
export const LINE_COST = 14;

/**
 * While the renderer's window is full the engine keeps reading the pty up to this parse
 * cost (about 300 KB of a coloured log, 56 KB of `yes`), so the window's next opening is
 * filled from memory at once. The kernel holds only about 14 KB for a reader that stopped;
 * after that the writer blocks, and the refill comes 4 KB per read. Without it `cat` ran at
 * about 70% of the reference page instead of 85%; with 256 KB of bytes instead of cost,
 * Ctrl+C under `yes` took 110–138 ms (p95) instead of 72–98.
 */
export const READ_AHEAD_COST = 320 * 1024;

/**
 * While a plain flood can be skipped (panes/floodSkip.ts), the backlog keeps only the lines the
 * renderer can show: screen and scrollback, about 10,000 lines (30 KB of `yes`, 1.8 MB of a
 * coloured log). Read-ahead goes on up to this parse cost, as long as what a cut keeps costs
 * at most half of it (not for lines of 10 KB each: they are read as any flood is).
 */
export const SKIPPING_READ_AHEAD_COST = 6 * 1024 * 1024;

/**
 * While a flood is skipped the renderer gets at most this much output per frame
 * (panes/floodPace.ts): about 90 lines of a coloured log fifteen times a second, twice what a
 * screen shows, and the page's parsing and painting no longer take the CPU the flood itself
 * needs. With 64 KB every 33 ms the page parsed 9.5 MB of a 50 MB `cat`, with 16 KB 5.1 MB
 * (and a Ctrl+C has less in flight before the prompt); painting 30 times a second still kept
 * the page's main thread 89% busy, and 15 took `cat` from 13.2 to 16.6 MB/s.
 */
export const SKIPPING_FRAME_BYTES = 16 * 1024;
export const SKIPPING_FRAME_MS = 66;

/**
 * The pace holds while output keeps coming: the rest of a flood that stopped goes at full speed.
 * A flood that ends in a prompt ends the pace at once (the prompt is not plain text); this is
 * for a flood that only pauses. With 50 ms, a loaded machine's pauses (the program or the
 * engine waiting for a core) let the pace go several times a second, and each time the renderer
 * parsed hundreds of KB the flood then scrolled away.
 */
export const PACE_WHILE_OUTPUT_WITHIN_MS = 250;

/**
 * A skip is made once it drops at least this much (or at any size after a key): each costs an
 * event, and one per pty read (4 KB) swamped the renderer with tiny writes.
 */
export const SKIP_AT_LEAST = 256 * 1024;

/**
 * A flood's line ends are noted (with the SGR sequences a cut there would write first) only this
 * many bytes apart, in the engine's FloodSkip and the mirror thread's DeferredPlainOutput: a cut
 * ends at most this much before the best line end, and noting every kilobyte of a coloured log
 * built its SGR prefix 50,000 times per 50 MB (about 100 ms of the engine's main thread).
 */
export const LINE_END_NOTE_BYTES = 8 * 1024;

/** After a key pressed into a flooding pane (Ctrl+C, `q`), nothing is read ahead for this long. */
export const NO_READ_AHEAD_AFTER_INPUT_MS = 1_000;

/**
 * While the user typed into another pane this recently, a flood that could be skipped is read
 * ahead only as far as any flood (READ_AHEAD_COST), not at full speed: the renderer's typing
 * mode (its TYPING_MS) gives such a pane a slice a second meanwhile anyway. Reading `yes` at
 * full speed took a core and doubled the echo's p95 in the pane typed in.
 */
export const TYPING_ELSEWHERE_MS = 1_000;

/** More unparsed output than an echo or a prompt ever leaves: the pane is flooding. */
export const FLOODING_BYTES = 64 * 1024;

/**
 * Output for the mirror thread waits at most this long, or until this much is queued, and
 * then goes as one transferred buffer (one message a tick instead of one per pty read).
 */
export const MIRROR_FLUSH_MS = 4;
export const MIRROR_FLUSH_BYTES = 256 * 1024;

/**
 * A held plain flood is parsed once the pane has been quiet this long: longer than the
 * pauses flow control makes, so a flood that is only paused is not parsed in pieces.
 */
export const MIRROR_RELEASE_AFTER_QUIET_MS = 250;

/** At most this much plain output is held unparsed (one endless line must not grow without end). */
export const MIRROR_MAX_HELD_BYTES = 8 * 1024 * 1024;

/** The mirror thread's niceness on Linux: the terminal the user watches gets the CPU first. */
export const MIRROR_THREAD_NICENESS = 10;

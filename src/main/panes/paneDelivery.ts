import type { Events } from '../../shared/protocol';
import { BacklogCost } from '../pty/backlogCost';
import { DeliveryWindow, type PtyThrottle } from '../pty/flowControl';
import type { Watermarks } from '../pty/flowPolicy';
import { FLOODING_BYTES, NO_READ_AHEAD_AFTER_INPUT_MS, PACE_WHILE_OUTPUT_WITHIN_MS, READ_AHEAD_COST, RENDERER_WINDOW, SKIP_AT_LEAST, SKIPPING_READ_AHEAD_COST, TYPING_ELSEWHERE_MS } from '../pty/flowPolicy';
import { OutputBatcher, utf8SafeEnd } from '../pty/outputBatcher';
import { FloodPace } from './floodPace';
import { FloodSkip, lineEndBefore, type FloodScreen } from './floodSkip';
import { TypingActivity } from './typingActivity';

/** The client a pane's output and events go to. */
export interface PaneListener {
  output(paneId: number, bytes: Uint8Array): void;
  event<E extends keyof Events>(event: E, payload: Events[E]): void;
}

type Send = (listener: PaneListener) => void;

const NEVER_SKIP: FloodScreen = { cols: () => 80, rows: () => 24, scrollback: () => 0, parsedScreen: () => ({ offset: -1, plain: false }) };

/**
 * Gets a pane's output and events to its client, in stream order: each event goes out right
 * after the bytes before its stream offset and before the bytes after it, so the renderer
 * never hears of a block (or its end) before the output that leads up to it.
 *
 * Output is batched (OutputBatcher) within the client's delivery window; read-ahead from the
 * pty is limited by what the waiting backlog will cost to parse. While a client re-attaches,
 * everything produced meanwhile is held and handed over, in order, after its snapshot.
 *
 * A flood of plain text the client has fallen behind on is not sent in full: what would scroll
 * out of its buffer before it could be seen is dropped (FloodSkip), a `pane.skipped` event takes
 * its place in the stream, and the pty is read at full speed meanwhile.
 */
export class PaneDelivery {
  private readonly batcher: OutputBatcher;
  private readonly window: DeliveryWindow;
  private readonly backlogCost = new BacklogCost();
  private listener: PaneListener | undefined;
  private held: ({ bytes: Uint8Array } | { send: Send })[] | undefined;
  private inputDuringFloodAt = -Infinity;
  /** Bytes received, and the offset before an incomplete UTF-8 character at their end. */
  private received = 0;
  private receivedWhole = 0;
  /** Bytes handed on (sent, held or dropped). */
  private delivered = 0;
  /** Events waiting for the bytes before their offset, in order. */
  private events: { offset: number; send: Send }[] = [];
  private readonly skip: FloodSkip;
  /** The bytes sent last ended a line (CR LF): the client's parser is between sequences. */
  private sentLineEnd = false;
  /** SGR sequences written in place of skipped lines wait at the front of the backlog (not part of the stream). */
  private attributesInFront = 0;
  private readonly pace = new FloodPace(() => this.batcher.flushNow());
  /** Stream offset up to which the backlog is what the last cut kept: it goes in one frame once the flood is over. */
  private keptUntil = 0;
  private lastOutputAt = -Infinity;
  private readonly stopWatchingTyping: () => void;
  private typingEnds: NodeJS.Timeout | undefined;
  /** Waiting for the client to have everything sent so far (whenCaughtUp). */
  private readonly caughtUpWaiters = new Set<() => void>();

  constructor(
    private readonly paneId: number,
    private readonly throttle: PtyThrottle,
    /** The client's terminal, for skipping what it cannot show; nothing is skipped without it. */
    screen: FloodScreen = NEVER_SKIP,
    /** The client's window, the smallest skip and how far apart cuts may be (flowPolicy.ts); tests make them small. */
    private readonly policy: { window: Watermarks; skipAtLeast: number; cutsApart?: number } = { window: RENDERER_WINDOW, skipAtLeast: SKIP_AT_LEAST },
    /** Keys to every pane of the engine: typing elsewhere slows a skipped flood's reading here. */
    private readonly typing = new TypingActivity(),
  ) {
    this.stopWatchingTyping = typing.onTyped((paneId) => paneId !== this.paneId && this.typedElsewhere());
    this.skip = new FloodSkip(screen, policy.cutsApart);
    this.window = new DeliveryWindow(policy.window, { reopened: () => this.batcher.flushNow() });
    this.batcher = new OutputBatcher(
      (bytes, remaining) => {
        this.backlogCost.sent(bytes.length, remaining);
        const reset = Math.min(this.attributesInFront, bytes.length);
        this.attributesInFront -= reset;
        this.delivered += bytes.length - reset;
        this.pace.sent(bytes.length);
        this.skip.sentUpTo(this.delivered);
        this.sentLineEnd = bytes.length >= 2 && bytes[bytes.length - 1] === 0x0a && bytes[bytes.length - 2] === 0x0d;
        this.deliver(bytes);
      },
      {
        room: () => this.room(),
        frameLimit: () => this.keptToSendWhole(performance.now()),
        flushed: () => {
          this.releaseDueEvents();
          // The window may have just filled up with the backlog still waiting.
          this.skipUnseen();
          this.limitReadAhead();
        },
        // Frames of a flood that may be skipped end at line ends, where a skip can begin. Once
        // one was made, the paced frames after it too: a key pressed after a frame that ended
        // mid-line found no place to cut, and the renderer parsed the whole backlog first.
        frameEnd: (bytes, end, pending) => ((pending >= FLOODING_BYTES || this.skip.skipping) && this.skip.skippable ? lineEndBefore(bytes, end) : end),
      },
    );
  }

  /** Bytes sent to the client and not yet acknowledged. */
  get outstanding(): number {
    return this.window.outstanding;
  }

  /**
   * Runs `then` once the client has acknowledged (parsed) everything read so far and nothing
   * waits to be sent; on the next check phase when there is no client to wait for (none
   * attached, or one re-attaching). Returns a function that cancels the wait.
   */
  whenCaughtUp(then: () => void): () => void {
    if (!this.listener || this.held) {
      const soon = setImmediate(then);
      return () => clearImmediate(soon);
    }
    const waiter = () => {
      this.caughtUpWaiters.delete(waiter);
      then();
    };
    this.caughtUpWaiters.add(waiter);
    this.releaseCaughtUpWaiters();
    return () => this.caughtUpWaiters.delete(waiter);
  }

  output(chunk: Uint8Array): void {
    this.received += chunk.length;
    this.receivedWhole = this.received - (chunk.length - utf8SafeEnd(chunk, chunk.length));
    // A plain run's line feeds are counted by the skip's scan; others only when the backlog
    // grows past one batch, which only a full window lets happen (counting costs about 1 ms per MB).
    const behind = this.behind();
    this.lastOutputAt = performance.now();
    const feeds = this.skip.scan(chunk);
    if (behind) this.backlogCost.added(chunk, feeds >= 0 ? feeds : undefined);
    this.batcher.push(chunk);
    this.skipUnseen();
    this.limitReadAhead();
  }

  /** The mirror parsed more: it may now say the screen is plain, and a flood may be skipped. */
  screenParsed(): void {
    if (!this.behind() || this.batcher.pending === 0) return;
    this.skipUnseen();
    this.limitReadAhead();
  }

  /** The client's terminal has a new size from this point of the stream on. */
  resized(cols: number, rows: number): void {
    this.skip.reset();
    this.event('pane.resized', { paneId: this.paneId, cols, rows }, this.received);
  }

  /**
   * An event at stream offset `offset`: a mark's offset inside output still to come, or the
   * end of the output so far (then before a character still incomplete, never inside one).
   */
  event<E extends keyof Events>(event: E, payload: Events[E], offset: number): void {
    const at = offset === this.received ? this.receivedWhole : offset;
    const last = this.events.at(-1)?.offset ?? 0;
    this.events.push({ offset: Math.max(at, last), send: (listener) => listener.event(event, payload) });
    this.releaseDueEvents();
  }

  /** A fresh pane's first client. */
  attach(listener: PaneListener): void {
    this.listener = listener;
    this.window.reset();
    this.releaseCaughtUpWaiters();
  }

  /**
   * A client re-attaches with a snapshot that holds every byte received so far: output still
   * waiting is dropped; what waits to be sent from now on is held until `endReattach`.
   */
  beginReattach(): void {
    // The new client starts from the snapshot.
    this.handOverPending(this.listener);
    this.listener = undefined;
    this.held = [];
    this.delivered = this.received;
    this.attributesInFront = 0;
    this.skip.reset();
    this.releaseDueEvents();
    this.window.reset();
    this.limitReadAhead();
    this.releaseCaughtUpWaiters();
  }

  endReattach(listener: PaneListener): void {
    const held = this.held ?? [];
    this.held = undefined;
    this.listener = listener;
    for (const item of held) {
      if ('bytes' in item) this.deliver(item.bytes);
      else item.send(listener);
    }
  }

  detach(listener: PaneListener): void {
    if (this.listener !== listener) return;
    this.handOverPending(listener);
    this.delivered = this.received;
    this.attributesInFront = 0;
    this.skip.reset();
    this.listener = undefined;
    this.window.reset();
    this.releaseDueEvents();
    this.releaseCaughtUpWaiters();
  }

  /**
   * A client going away (replaced by another window, or re-attaching) still gets what was read
   * before it went, whatever its window: it saw the stream up to there.
   */
  private handOverPending(listener: PaneListener | undefined): void {
    const rest = this.batcher.takePending();
    if (listener && !this.held && rest.length > 0) listener.output(this.paneId, rest);
  }

  acknowledge(bytes: number): void {
    this.window.acknowledged(bytes);
    // A paced client's window is never full, so it never reopens: what waits goes on here.
    if (this.batcher.pending > 0 && this.paced()) this.batcher.flushNow();
    this.releaseCaughtUpWaiters();
  }

  private releaseCaughtUpWaiters(): void {
    if (this.caughtUpWaiters.size === 0) return;
    const clientCaughtUp = this.window.outstanding === 0 && this.batcher.pending === 0;
    if (this.listener && !this.held && !clientCaughtUp) return;
    for (const waiter of [...this.caughtUpWaiters]) waiter();
  }

  /** A key from the user. During a flood (Ctrl+C, q), what is in flight already is all that stays ahead of it. */
  userInput(): void {
    // A flood being skipped is paced, so little is outstanding; it is a flood all the same.
    if (this.window.outstanding <= FLOODING_BYTES && !this.paced()) return;
    this.skipUnseen(0);
    this.inputDuringFloodAt = performance.now();
    this.batcher.flushNow();
    this.limitReadAhead();
  }

  /** The user typed into another pane: read ahead less now, and as before once typing there stops. */
  private typedElsewhere(): void {
    this.limitReadAhead();
    clearTimeout(this.typingEnds);
    this.typingEnds = setTimeout(() => this.typingElsewhereEnded(), TYPING_ELSEWHERE_MS).unref();
  }

  private typingElsewhereEnded(): void {
    // A timer may fire a fraction of a millisecond before the clock says its time is up.
    const left = this.typing.typingElsewhereFor(this.paneId);
    if (left > 0) this.typingEnds = setTimeout(() => this.typingElsewhereEnded(), Math.ceil(left)).unref();
    else this.limitReadAhead();
  }

  /**
   * What waits goes out now rather than on the batcher's next tick (the chunk just read ends a
   * block or shows a prompt, and work follows that must not hold it up), unless the client is
   * behind: a flood's backlog is paced and skipped as ever.
   */
  sendNow(): void {
    if (!this.behind()) this.batcher.flushNow();
  }

  /** Everything now, partial characters included (the shell exited). */
  flushAll(): void {
    // No more output comes: a flood's pace no longer holds what is left.
    this.lastOutputAt = -Infinity;
    this.batcher.flushAll();
  }

  /** The pane is closing: nothing more goes out. */
  discardPending(): void {
    this.batcher.discardPending();
    this.pace.dispose();
    this.stopWatchingTyping();
    clearTimeout(this.typingEnds);
    this.events = [];
  }

  /**
   * What the batcher may send now: within the window, and not past the next event. The lines a
   * cut kept go whole once the flood is over (`keptToSendWhole`).
   */
  private room(): number {
    this.releaseDueEvents();
    const next = this.events[0];
    const beforeEvent = next ? next.offset - this.delivered + this.attributesInFront : Infinity;
    const now = performance.now();
    const room = Math.min(Math.max(this.window.room(), this.keptToSendWhole(now)), beforeEvent);
    return this.paced(now) ? Math.min(room, this.pace.room(now)) : room;
  }

  /**
   * What the last cut kept, to go in one frame, past the window, once the flood is over: output
   * that is not plain came after it (the prompt), or a key was pressed into it; 0 otherwise. xterm
   * parses a write whole and paints only between writes; in frames through the window, 2 MB of
   * kept lines went in a dozen writes with a paint after each, each paint costing as much as
   * parsing its write (docs/architecture.md, "A flood costs what the screen shows"). A flood that
   * only pauses goes on through the window: whatever it kept may scroll away yet.
   */
  private keptToSendWhole(now: number): number {
    if (this.keptUntil <= this.delivered || this.paced(now)) return 0;
    const over = !this.skip.skipping || now - this.inputDuringFloodAt < NO_READ_AHEAD_AFTER_INPUT_MS;
    return over ? this.keptUntil - this.delivered + this.attributesInFront : 0;
  }

  /** A flood is being skipped and goes on: the client gets a frame per display frame (FloodPace). */
  private paced(now = performance.now()): boolean {
    // After a key into the flood (Ctrl+C, q) what is left goes at full speed: the prompt is next.
    return this.skip.skipping && now - this.lastOutputAt < PACE_WHILE_OUTPUT_WITHIN_MS && now - this.inputDuringFloodAt >= NO_READ_AHEAD_AFTER_INPUT_MS;
  }

  /** The client is behind on the output: its window is full, or it is paced through a flood. */
  private behind(): boolean {
    return this.window.isFull || this.paced();
  }

  private releaseDueEvents(): void {
    while (this.events.length > 0 && this.events[0]!.offset <= this.delivered) {
      const { send } = this.events.shift()!;
      if (this.held) this.held.push({ send });
      else if (this.listener) send(this.listener);
    }
  }

  /**
   * While the client is behind on a plain flood, drops what it would only parse to throw away:
   * from where it is up to the last line end whose following lines fill its whole buffer. A cut
   * is made once it drops at least SKIP_AT_LEAST bytes (each is an event, and a reset), or at
   * any size when a key is pressed into the flood (less to parse before the prompt shows).
   */
  private skipUnseen(atLeast = this.policy.skipAtLeast): void {
    if (!this.listener || this.held || !this.behind() || this.batcher.pending === 0) return;
    const limit = Math.min(this.events[0]?.offset ?? Infinity, this.received);
    const cut = this.skip.cutAfter(this.delivered, this.sentLineEnd, limit, atLeast);
    if (!cut) return;
    const count = cut.offset - this.delivered;
    this.batcher.dropFront(this.attributesInFront + count);
    this.backlogCost.sent(this.attributesInFront + count, this.batcher.pending);
    this.delivered = cut.offset;
    // The rest starts with the attributes the dropped lines left.
    if (cut.prefix.length > 0) this.batcher.pushFront(cut.prefix);
    this.attributesInFront = cut.prefix.length;
    this.skip.cutMade();
    this.keptUntil = this.received;
    const skipped = { paneId: this.paneId, bytes: count, prefixBytes: cut.prefix.length };
    this.events.unshift({ offset: this.delivered, send: (listener) => listener.event('pane.skipped', skipped) });
    this.releaseDueEvents();
  }

  private limitReadAhead(): void {
    const afterInput = performance.now() - this.inputDuringFloodAt < NO_READ_AHEAD_AFTER_INPUT_MS;
    // A flood that can be skipped keeps only what the client can show: read it at full speed.
    // Not while the user types into another pane: full speed takes a core (TYPING_ELSEWHERE_MS).
    const skipping = this.skip.skippable && this.skip.keptCost() < SKIPPING_READ_AHEAD_COST / 2 && !this.typing.typingElsewhere(this.paneId);
    const limit = afterInput ? 0 : skipping ? SKIPPING_READ_AHEAD_COST : READ_AHEAD_COST;
    const waiting = this.backlogCost.cost(this.batcher.pending);
    if (waiting > limit) this.throttle.hold('read-ahead');
    else if (waiting <= limit / 2) this.throttle.release('read-ahead');
  }

  private deliver(bytes: Uint8Array): void {
    if (this.held) {
      this.held.push({ bytes });
      return;
    }
    if (!this.listener) return;
    this.window.sent(bytes.length);
    this.listener.output(this.paneId, bytes);
  }
}

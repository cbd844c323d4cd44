import { randomUUID } from 'node:crypto';
import type { AssistantItem, RetryItem } from './conversation/conversation';
import type { ModelBackend, ModelRequest, ModelResult, StreamHandlers } from './backends/modelBackend';
import { ModelError } from './backends/modelError';

/** Automatic retries of a request that failed before anything streamed. */
const MAX_RETRIES = 4;
/**
 * Retries of a request that got no answer at all (connection refused, DNS, TLS) when a
 * fallback backend is ready: one, for a blip; an endpoint that is down rarely comes back
 * within the 15 s all retries take, and the fallback answers now.
 */
const RETRIES_BEFORE_FALLBACK = 1;

export type TurnEnd =
  | { kind: 'answered'; result: ModelResult }
  | { kind: 'cancelled' }
  /** `attempts`: how many times the request was sent. */
  | { kind: 'failed'; error: ModelError; attempts: number };

export interface TurnListener extends Required<Pick<StreamHandlers, 'toolUse' | 'sent'>> {
  /** Streamed text (already added to the item). */
  text(delta: string): void;
  /** The phase or the retry countdown changed. */
  changed(): void;
  /** A retry countdown starts: its card joins the conversation. */
  retryShown(card: RetryItem): void;
  /** The request went out again: the card has done its job and leaves. */
  retryDone(card: RetryItem): void;
}

/**
 * One request to the model, its answer streamed into an assistant item. A request that fails
 * before anything streamed is retried, after a countdown the user can cancel; the countdown
 * is a card in the conversation, and a cancelled one stays there as a marker.
 */
export class ModelTurn {
  readonly item: AssistantItem = { id: randomUUID(), role: 'assistant', text: '', streaming: true, at: Date.now() };
  private currentPhase: 'thinking' | 'streaming' | 'retrying' = 'thinking';
  private answered = false;
  private countdown: string | undefined;
  private readonly abort = new AbortController();

  constructor(
    private readonly listener: TurnListener,
    /** First retry delay when the server names none (doubling each time). */
    private readonly retryBaseMs = 1_000,
  ) {}

  get phase(): 'thinking' | 'streaming' | 'retrying' {
    return this.currentPhase;
  }

  /** The retry countdown while it waits. */
  get detail(): string | undefined {
    return this.currentPhase === 'retrying' ? this.countdown : undefined;
  }

  /** `fallbackReady`: another backend takes the request if this one cannot be reached (fewer retries when nothing answers). */
  async run(backend: ModelBackend, request: ModelRequest, options: { fallbackReady?: boolean } = {}): Promise<TurnEnd> {
    const handlers: StreamHandlers = {
      text: (delta) => {
        this.item.text += delta;
        if (this.currentPhase !== 'streaming') {
          this.currentPhase = 'streaming';
          this.listener.changed();
        }
        this.listener.text(delta);
      },
      sent: (body) => this.listener.sent(body),
      toolUse: (call) => this.listener.toolUse(call),
    };
    for (let attempt = 0; ; attempt++) {
      try {
        const result = await backend.stream(request, handlers, this.abort.signal);
        this.item.streaming = false;
        this.answered = true;
        return { kind: 'answered', result };
      } catch (error) {
        const failure = error instanceof ModelError ? error : new ModelError('network', String(error));
        if (failure.kind === 'cancelled' || this.abort.signal.aborted) return this.cancelled();
        const retries = options.fallbackReady && failure.noAnswer ? RETRIES_BEFORE_FALLBACK : MAX_RETRIES;
        if (failure.retryable && attempt < retries) {
          if (!(await this.waitBeforeRetry(failure, attempt, retries))) return this.cancelled();
          continue;
        }
        // What arrived stays in the conversation; the error says once why it stopped.
        this.item.streaming = false;
        return { kind: 'failed', error: failure, attempts: attempt + 1 };
      }
    }
  }

  /** The request that failed goes to another backend (nothing had streamed): the answer is still to come. */
  resume(): void {
    this.item.streaming = true;
    this.currentPhase = 'thinking';
  }

  /**
   * Esc: the request stops, and the item settles now, not when the connection has finished
   * closing. An answer that is complete stays as it is (an auto run's token budget, used up by
   * that very answer, stops everything right after it).
   */
  cancel(): void {
    if (this.answered) return;
    this.abort.abort();
    this.cancelled();
  }

  private cancelled(): TurnEnd {
    this.item.streaming = false;
    if (this.item.text) this.item.interrupted = 'Cancelled.';
    return { kind: 'cancelled' };
  }

  /** Waits before a retry with a countdown card; false when the user cancelled (the card stays, marked). */
  private waitBeforeRetry(failure: ModelError, attempt: number, retries: number): Promise<boolean> {
    const delay = failure.options.retryAfterMs ?? Math.min(30_000, this.retryBaseMs * 2 ** attempt);
    const until = Date.now() + delay;
    this.currentPhase = 'retrying';
    const card: RetryItem = {
      id: randomUUID(),
      role: 'retry',
      reason: failure.message,
      state: 'waiting',
      secondsLeft: Math.ceil(delay / 1000),
      attempt: attempt + 2,
      attempts: retries + 1,
      at: Date.now(),
    };
    this.listener.retryShown(card);
    return new Promise((resolve) => {
      const tick = () => {
        if (this.abort.signal.aborted) return done(false);
        const left = until - Date.now();
        if (left <= 0) return done(true);
        card.secondsLeft = Math.ceil(left / 1000);
        this.countdown = `${failure.message} Retrying in ${card.secondsLeft} s (attempt ${card.attempt} of ${card.attempts}); Esc cancels.`;
        this.listener.changed();
        timer = setTimeout(tick, Math.min(1_000, left));
      };
      let timer: NodeJS.Timeout | undefined;
      const done = (ok: boolean) => {
        clearTimeout(timer);
        this.abort.signal.removeEventListener('abort', onAbort);
        this.countdown = undefined;
        this.currentPhase = 'thinking';
        card.secondsLeft = 0;
        if (ok) this.listener.retryDone(card);
        else card.state = 'cancelled';
        this.listener.changed();
        resolve(ok);
      };
      const onAbort = () => done(false);
      this.abort.signal.addEventListener('abort', onAbort);
      tick();
    });
  }
}

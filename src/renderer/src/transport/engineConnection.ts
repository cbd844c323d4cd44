import { Emitter, type Disposable } from '../../../shared/events';
import {
  FrameKind,
  decodeFrame,
  encodeAck,
  encodeFrame,
  type EventName,
  type Events,
  type Method,
  type Params,
  type Results,
} from '../../../shared/protocol';
import { ChannelRefusedError, type Channel, type ChannelData, type ChannelFactory } from './channel';

export type ConnectionStatus =
  /** First attempt, nothing shown yet. */
  | 'connecting'
  | 'open'
  /** Lost (or never reached); retrying with backoff. */
  | 'reconnecting'
  /** Another tab or window took the session over; we do not fight back on our own. */
  | 'replaced'
  /** The engine refused this page's access token (browser mode): no retries, the page says what to do. */
  | 'refused';

export class EngineRequestError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'EngineRequestError';
  }
}

interface PendingRequest {
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
}

type OutputListener = (paneId: number, bytes: Uint8Array) => void;
type StatusListener = (status: ConnectionStatus, detail?: string) => void;

const RETRY_DELAYS_MS = [250, 500, 1_000, 2_000, 4_000];
const textEncoder = new TextEncoder();

/**
 * The renderer's side of src/shared/protocol.ts: requests with promised results, typed
 * events, and binary frames (output in; input and acks out) over any {@link Channel}.
 * Reconnects by itself; listeners learn about each (re)connection through the status.
 */
export class EngineConnection {
  private channel: Channel | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, PendingRequest>();
  /** One emitter per event name; a throwing listener is reported and the others still run. */
  private readonly eventEmitters = new Map<EventName, Emitter<unknown>>();
  private readonly outputEmitter = new Emitter<{ paneId: number; bytes: Uint8Array }>();
  private readonly statusEmitter = new Emitter<{ status: ConnectionStatus; detail?: string }>();
  private currentStatus: ConnectionStatus = 'connecting';
  private attempt = 0;
  /** Bumped by every connection attempt; an attempt that was overtaken gives up its channel. */
  private attemptSerial = 0;
  private retryTimer: number | undefined;
  private started = false;

  constructor(private readonly openChannel: ChannelFactory) {}

  get status(): ConnectionStatus {
    return this.currentStatus;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    void this.connect();
  }

  /** Reconnect right away (the "Retry" / "Use here" buttons). */
  reconnectNow(): void {
    if (this.retryTimer !== undefined) window.clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.attempt = 0;
    const previous = this.channel;
    if (previous) {
      if (this.currentStatus === 'open') return;
      this.channel = undefined;
      previous.onclose = null;
      previous.close();
    }
    this.setStatus('reconnecting');
    void this.connect();
  }

  request<M extends Method>(method: M, params: Params<M>): Promise<Results[M]> {
    const channel = this.channel;
    if (!channel || this.currentStatus !== 'open') {
      return Promise.reject(new EngineRequestError('Not connected to the Tandem engine.', 'disconnected'));
    }
    const id = this.nextId++;
    return new Promise<Results[M]>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (result: unknown) => void, reject });
      channel.send(JSON.stringify({ id, method, params }));
    });
  }

  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): Disposable {
    let emitter = this.eventEmitters.get(event);
    if (!emitter) {
      emitter = new Emitter<unknown>({ onListenerError: (error) => console.error(`[tandem] ${event} handler failed`, error) });
      this.eventEmitters.set(event, emitter);
    }
    return emitter.event((payload) => listener(payload as Events[E]));
  }

  onOutput(listener: OutputListener): Disposable {
    return this.outputEmitter.event(({ paneId, bytes }) => listener(paneId, bytes));
  }

  onStatus(listener: StatusListener): Disposable {
    return this.statusEmitter.event(({ status, detail }) => listener(status, detail));
  }

  /** Keystrokes and pastes go out at once: batching input adds latency the user feels. */
  sendInput(paneId: number, data: string | Uint8Array): void {
    const bytes = typeof data === 'string' ? textEncoder.encode(data) : data;
    if (bytes.byteLength === 0) return;
    this.channel?.send(encodeFrame(FrameKind.Input, paneId, bytes));
  }

  /** A push-to-talk recording, sent ahead of the `voice.transcribe` that names its id (shared/voice.ts). */
  sendVoiceClip(clipId: number, wav: Uint8Array): boolean {
    if (!this.channel || this.currentStatus !== 'open') return false;
    this.channel.send(encodeFrame(FrameKind.VoiceClip, clipId, wav));
    return true;
  }

  sendAck(paneId: number, byteCount: number): void {
    if (byteCount > 0) this.channel?.send(encodeAck(paneId, byteCount));
  }

  private async connect(): Promise<void> {
    const serial = ++this.attemptSerial;
    let channel: Channel;
    try {
      channel = await this.openChannel();
    } catch (error) {
      if (serial !== this.attemptSerial) return;
      if (error instanceof ChannelRefusedError) {
        this.setStatus('refused', error.tokenMissing ? 'missing-token' : 'wrong-token');
        return;
      }
      this.scheduleRetry(error instanceof Error ? error.message : String(error));
      return;
    }
    if (serial !== this.attemptSerial) {
      // "Retry now" started a newer attempt meanwhile; a second live channel would deliver
      // every event and output frame twice (and make the engine replace one with the other).
      channel.onclose = null;
      channel.close();
      return;
    }
    this.channel = channel;
    this.attempt = 0;
    channel.onmessage = (data) => this.receive(data);
    channel.onclose = (reason) => this.lost(channel, reason);
    this.setStatus('open');
  }

  private lost(channel: Channel, reason: string): void {
    if (this.channel !== channel) return;
    this.channel = undefined;
    for (const request of this.pending.values()) {
      request.reject(new EngineRequestError('The connection to the Tandem engine was lost.', 'disconnected'));
    }
    this.pending.clear();
    if (this.currentStatus === 'replaced') return;
    this.scheduleRetry(reason);
  }

  private scheduleRetry(reason: string): void {
    this.setStatus('reconnecting', reason);
    const delay = RETRY_DELAYS_MS[Math.min(this.attempt, RETRY_DELAYS_MS.length - 1)] ?? 4_000;
    this.attempt += 1;
    this.retryTimer = window.setTimeout(() => {
      this.retryTimer = undefined;
      void this.connect();
    }, delay);
  }

  private receive(data: ChannelData): void {
    if (typeof data === 'string') {
      this.receiveText(data);
      return;
    }
    const frame = decodeFrame(data);
    if (!frame || frame.kind !== FrameKind.Output) return;
    this.outputEmitter.fire({ paneId: frame.paneId, bytes: frame.payload });
  }

  private receiveText(text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      console.warn('[tandem] ignoring a malformed message from the engine');
      return;
    }
    if (typeof message !== 'object' || message === null) return;
    const record = message as Record<string, unknown>;
    if (typeof record.id === 'number') {
      const request = this.pending.get(record.id);
      if (!request) return;
      this.pending.delete(record.id);
      const error = record.error as { message?: unknown; code?: unknown } | undefined;
      if (error) {
        request.reject(
          new EngineRequestError(
            typeof error.message === 'string' ? error.message : 'The engine refused the request.',
            typeof error.code === 'string' ? error.code : undefined,
          ),
        );
      } else {
        request.resolve(record.result);
      }
      return;
    }
    if (typeof record.event === 'string') {
      const event = record.event as EventName;
      if (event === 'connection.replaced') {
        this.setStatus('replaced');
      }
      this.eventEmitters.get(event)?.fire(record.payload);
    }
  }

  private setStatus(status: ConnectionStatus, detail?: string): void {
    const changed = status !== this.currentStatus;
    this.currentStatus = status;
    // Each failed attempt (a 'reconnecting' with its reason) is reported, so the UI can count
    // them and offer its "how to get back in" hint after a few.
    const failedAttempt = status === 'reconnecting' && detail !== undefined;
    if (!changed && status !== 'open' && !failedAttempt) return;
    this.statusEmitter.fire({ status, detail });
  }
}

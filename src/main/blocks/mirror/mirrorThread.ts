import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import mirrorWorkerPath from './mirrorWorker?modulePath';
import { MirrorCommandQueue } from './mirrorCommandQueue';
import type { MirrorAnswers, MirrorCommand, MirrorEvent, MirrorQuery } from './mirrorProtocol';
import { MIRROR_RESTART_POLICY, RestartBackoff, type RestartPolicy } from './restartBackoff';
import { unpackedPath } from '../../packaged/unpackedPath';

/** What a pane's mirror hears from the thread. */
export interface MirrorSubscriber {
  parsed(bytes: number, plainScreen: boolean): void;
  modes(modes: { alternateScreen: boolean; bracketedPaste: boolean }): void;
  /** The thread died after working: this mirror's content is gone (it is opened again, empty). */
  lost(reason: string): void;
  /** The thread failed too often: it stays off in this process and mirrors nothing. */
  off(off: MirrorOff): void;
}

/** Why the mirror thread is off: a line for the pane, and each failure for the engine log. */
export interface MirrorOff {
  reason: string;
  detail: string;
}

export interface MirrorThreadOptions {
  /** The worker's script (tests); the bundled mirrorWorker by default. */
  workerLocation?: URL | string;
  restart?: RestartPolicy;
  /** A thread that has not said it is ready after this long is stopped and counts as failed. */
  readyTimeoutMs?: number;
}

/**
 * Loading takes well under a second; this is for a thread that hangs while loading, whose
 * commands would otherwise wait (and hold the pty once its mirror window is full) for ever.
 */
const READY_TIMEOUT_MS = 20_000;

/** Failures kept for the engine log's record of why the thread went off. */
const FAILURES_KEPT = 10;

/**
 * The one mirror thread of this process, shared by every pane. Commands are queued
 * (MirrorCommandQueue) and posted once per turn of the event loop, so a flood costs a few
 * messages per tick, not one per pty read.
 *
 * Commands are posted only once the thread says it is ready, so a thread that fails to load
 * loses none of them (the pty's flow window bounds what waits meanwhile). A dead thread is
 * started again after a backoff (RestartBackoff); after too many failures the thread stays
 * off for the rest of the process, and every mirror is told so (`off`): from then on writes
 * are dropped and reads get their fallback at once.
 */
export class MirrorThread {
  private worker: Worker | undefined;
  /** The current worker has loaded (sent `ready`). */
  private ready = false;
  private restartTimer: NodeJS.Timeout | undefined;
  private readyTimer: NodeJS.Timeout | undefined;
  private offState: MirrorOff | undefined;
  private readonly backoff: RestartBackoff;
  private readonly failures: string[] = [];
  private lastError: Error | undefined;
  private starts = 0;
  private readonly queue = new MirrorCommandQueue(() => this.flush());
  private nextRequest = 1;
  private nextMirror = 1;
  private readonly requests = new Map<number, { resolve(value: unknown): void; fallback: unknown }>();
  private readonly subscribers = new Map<number, MirrorSubscriber>();

  constructor(private readonly options: MirrorThreadOptions = {}) {
    this.backoff = new RestartBackoff(options.restart ?? MIRROR_RESTART_POLICY);
  }

  /** A new mirror id; `subscriber` hears its acks, mode changes, loss and the thread going off. */
  register(subscriber: MirrorSubscriber): number {
    const id = this.nextMirror++;
    this.subscribers.set(id, subscriber);
    const off = this.offState;
    // Told after the constructors that registered it have wired their listeners.
    if (off) queueMicrotask(() => this.subscribers.get(id)?.off(off));
    return id;
  }

  unregister(mirror: number): void {
    this.subscribers.delete(mirror);
  }

  /** Set once the thread has been given up on (for good in this process). */
  get off(): MirrorOff | undefined {
    return this.offState;
  }

  /** Worker threads started so far (tests bound the restarts with it). */
  get workerStarts(): number {
    return this.starts;
  }

  send(command: MirrorCommand): void {
    if (this.offState) return;
    this.queue.add(command);
  }

  /**
   * Asks the thread about a mirror; answered once the bytes sent before are parsed, or with
   * `fallback` if the thread dies first or is off.
   */
  ask<Q extends MirrorQuery>(mirror: number, query: Q, fallback: MirrorAnswers[Q['op']]): Promise<MirrorAnswers[Q['op']]> {
    if (this.offState) return Promise.resolve(fallback);
    const request = this.nextRequest++;
    return new Promise((resolve) => {
      this.requests.set(request, { resolve: resolve as (value: unknown) => void, fallback });
      this.send({ ...query, mirror, request } as MirrorCommand);
      this.keepAliveWhileAsked();
    });
  }

  /** The worker, for tests that need to kill it. */
  get currentWorker(): Worker | undefined {
    return this.worker;
  }

  /** Stops the thread for good without telling anyone (tests, for a thread of their own). */
  async dispose(): Promise<void> {
    this.offState ??= { reason: 'the mirror thread was shut down', detail: '' };
    this.subscribers.clear();
    this.stopWaiting();
    this.answerPendingWithFallbacks();
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private flush(): void {
    this.queue.cancelTimers();
    if (this.queue.isEmpty) return;
    if (!this.worker || !this.ready) {
      // Kept until a thread is ready (started now unless a restart is waiting).
      this.start();
      return;
    }
    const { commands, transfer } = this.queue.take();
    this.worker.postMessage(commands, transfer);
  }

  private start(): void {
    if (this.worker || this.restartTimer || this.offState) return;
    this.starts++;
    const startedAt = performance.now();
    let worker: Worker;
    try {
      worker = new Worker(this.options.workerLocation ?? bundledWorkerLocation(), { name: 'tandem-mirror' });
    } catch (error) {
      // A location Node refuses outright: a failure like any other (no thread to wait for).
      this.failed(error instanceof Error ? error : new Error(String(error)), `it could not be started: ${messageOf(error)}`, false, startedAt);
      return;
    }
    this.worker = worker;
    this.ready = false;
    this.keepAliveWhileAsked();
    worker.on('message', (event: MirrorEvent) => this.onEvent(worker, event));
    let error: Error | undefined;
    worker.on('error', (thrown) => (error = thrown));
    const readyTimeoutMs = this.options.readyTimeoutMs ?? READY_TIMEOUT_MS;
    this.readyTimer = setTimeout(() => {
      error = new Error(`it did not start within ${readyTimeoutMs / 1000} s`);
      void worker.terminate();
    }, readyTimeoutMs);
    this.readyTimer.unref();
    worker.on('exit', (code) => {
      if (this.worker !== worker) return;
      clearTimeout(this.readyTimer);
      const wasReady = this.ready;
      this.worker = undefined;
      this.ready = false;
      this.failed(error, `${error?.message ?? 'it exited'} (exit code ${code})`, wasReady, startedAt);
    });
  }

  private onEvent(worker: Worker, event: MirrorEvent): void {
    if (this.worker !== worker) return;
    if (event.kind === 'ready') {
      clearTimeout(this.readyTimer);
      this.ready = true;
      this.backoff.succeeded();
      this.flush();
      return;
    }
    if (event.kind === 'answer') {
      const pending = this.requests.get(event.request);
      this.requests.delete(event.request);
      this.keepAliveWhileAsked();
      pending?.resolve(event.value === undefined ? pending.fallback : event.value);
      return;
    }
    const subscriber = this.subscribers.get(event.mirror);
    if (event.kind === 'parsed') subscriber?.parsed(event.bytes, event.plainScreen);
    else subscriber?.modes({ alternateScreen: event.alternateScreen, bracketedPaste: event.bracketedPaste });
  }

  /**
   * The worker is gone. One that had loaded took the mirrors' content with it: pending reads
   * get their fallbacks and each mirror opens again. One that never loaded lost nothing: the
   * commands wait for the next one. Either way the next start waits its backoff, or the
   * thread stays off.
   */
  private failed(error: Error | undefined, reason: string, wasReady: boolean, startedAt: number): void {
    if (error) this.lastError = error;
    const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
    this.failures.push(`${wasReady ? 'died' : 'failed to load'} after ${seconds} s: ${reason}`);
    if (this.failures.length > FAILURES_KEPT) this.failures.shift();
    if (wasReady) {
      // Commands still queued were for the old thread's mirrors; the subscribers open new ones.
      this.queue.clear();
      this.answerPendingWithFallbacks();
      for (const subscriber of [...this.subscribers.values()]) subscriber.lost(reason);
    }
    const delay = this.backoff.failed();
    if (delay === undefined) {
      this.goOff(wasReady ? `the mirror thread kept failing: ${reason}` : `the mirror thread could not start: ${reason}`);
      return;
    }
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (!this.queue.isEmpty || this.requests.size > 0) this.start();
    }, delay);
    this.keepAliveWhileAsked();
  }

  private goOff(reason: string): void {
    const detail = [
      `${this.backoff.recentFailures} failures within ${(this.options.restart ?? MIRROR_RESTART_POLICY).windowMs / 1000} s; it stays off until Tandem is restarted:`,
      ...this.failures.map((failure) => `- ${failure}`),
      ...(this.lastError?.stack ? [this.lastError.stack] : []),
    ].join('\n');
    this.offState = { reason, detail };
    this.stopWaiting();
    this.answerPendingWithFallbacks();
    for (const subscriber of [...this.subscribers.values()]) subscriber.off(this.offState);
  }

  private stopWaiting(): void {
    clearTimeout(this.readyTimer);
    clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    this.queue.clear();
  }

  private answerPendingWithFallbacks(): void {
    const pending = [...this.requests.values()];
    this.requests.clear();
    for (const request of pending) request.resolve(request.fallback);
  }

  /** The thread (or the wait for its restart) keeps the process alive only while a read waits for it. */
  private keepAliveWhileAsked(): void {
    const waiting = this.requests.size > 0;
    for (const handle of [this.worker, this.restartTimer]) {
      if (waiting) handle?.ref();
      else handle?.unref();
    }
  }
}

/** The built worker script; in a packaged app, its copy unpacked from the asar (loaded the same way on every platform). */
function bundledWorkerLocation(): URL {
  return isAbsolute(mirrorWorkerPath) ? pathToFileURL(unpackedPath(mirrorWorkerPath)) : new URL(mirrorWorkerPath);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

let shared: MirrorThread | undefined;

/** The process's mirror thread (started with the first pane). */
export function mirrorThread(): MirrorThread {
  shared ??= new MirrorThread();
  return shared;
}

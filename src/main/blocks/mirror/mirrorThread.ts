import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { MIRROR_FLUSH_BYTES, MIRROR_FLUSH_MS } from '../../pty/flowPolicy';
import mirrorWorkerPath from './mirrorWorker?modulePath';
import type { MirrorAnswers, MirrorCommand, MirrorEvent, MirrorQuery } from './mirrorProtocol';

/** What a pane's mirror hears from the thread. */
export interface MirrorSubscriber {
  parsed(bytes: number): void;
  modes(modes: { alternateScreen: boolean; bracketedPaste: boolean }): void;
  /** The thread died: this mirror's content is gone (it is opened again, empty). */
  lost(reason: string): void;
}


type QueuedCommand = MirrorCommand | { op: 'write'; mirror: number; chunks: Uint8Array[]; length: number };

/**
 * The one mirror thread of this process, shared by every pane. Commands are queued and
 * posted once per turn of the event loop, with consecutive output of a pane joined into
 * one transferred buffer, so a flood costs a few messages per tick, not one per pty read.
 */
export class MirrorThread {
  private worker: Worker | undefined;
  private queue: QueuedCommand[] = [];
  private queuedBytes = 0;
  /** A flush is due on the next turn of the event loop. */
  private flushSoon: NodeJS.Immediate | undefined;
  /** Output alone is flushed a little later, so a flood goes over in fewer, bigger messages. */
  private flushLater: NodeJS.Timeout | undefined;
  private nextRequest = 1;
  private nextMirror = 1;
  private readonly requests = new Map<number, { resolve(value: unknown): void; fallback: unknown }>();
  private readonly subscribers = new Map<number, MirrorSubscriber>();

  /** A new mirror id; `subscriber` hears its acks, mode changes and loss. */
  register(subscriber: MirrorSubscriber): number {
    const id = this.nextMirror++;
    this.subscribers.set(id, subscriber);
    return id;
  }

  unregister(mirror: number): void {
    this.subscribers.delete(mirror);
  }

  send(command: MirrorCommand): void {
    if (command.op === 'write' && typeof command.data !== 'string') {
      const last = this.queue[this.queue.length - 1];
      if (last?.op === 'write' && last.mirror === command.mirror && 'chunks' in last) {
        last.chunks.push(command.data);
        last.length += command.data.byteLength;
      } else {
        this.queue.push({ op: 'write', mirror: command.mirror, chunks: [command.data], length: command.data.byteLength });
      }
      this.queuedBytes += command.data.byteLength;
      if (this.queuedBytes < MIRROR_FLUSH_BYTES) {
        this.flushLater ??= setTimeout(() => this.flush(), MIRROR_FLUSH_MS);
        return;
      }
    } else {
      this.queue.push(command);
    }
    this.flushSoon ??= setImmediate(() => this.flush());
  }

  /** Asks the thread about a mirror; answered once the bytes sent before are parsed. */
  ask<Q extends MirrorQuery>(mirror: number, query: Q, fallback: MirrorAnswers[Q['op']]): Promise<MirrorAnswers[Q['op']]> {
    const request = this.nextRequest++;
    return new Promise((resolve) => {
      this.requests.set(request, { resolve: resolve as (value: unknown) => void, fallback });
      this.ensureWorker().ref();
      this.send({ ...query, mirror, request } as MirrorCommand);
    });
  }

  /** The worker, for tests that need to kill it. */
  get currentWorker(): Worker | undefined {
    return this.worker;
  }

  private flush(): void {
    if (this.flushSoon) clearImmediate(this.flushSoon);
    if (this.flushLater) clearTimeout(this.flushLater);
    this.flushSoon = undefined;
    this.flushLater = undefined;
    if (this.queue.length === 0) return;
    const queued = this.queue;
    this.queue = [];
    this.queuedBytes = 0;
    const transfer: ArrayBuffer[] = [];
    const commands = queued.map((command): MirrorCommand => {
      if (!('chunks' in command)) return command;
      // A fresh buffer: a pty read's Buffer may share memory with others, and a transferred
      // view would take its whole backing store along.
      const data = new Uint8Array(command.length);
      let offset = 0;
      for (const chunk of command.chunks) {
        data.set(chunk, offset);
        offset += chunk.byteLength;
      }
      transfer.push(data.buffer);
      return { op: 'write', mirror: command.mirror, data };
    });
    this.ensureWorker().postMessage(commands, transfer);
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const location = isAbsolute(mirrorWorkerPath) ? pathToFileURL(mirrorWorkerPath) : new URL(mirrorWorkerPath);
    const worker = new Worker(location, { name: 'tandem-mirror' });
    worker.unref();
    worker.on('message', (event: MirrorEvent) => this.onEvent(event));
    let failure = 'it exited';
    worker.on('error', (error) => (failure = error.message));
    worker.on('exit', (code) => this.onExit(worker, `${failure} (exit code ${code})`));
    this.worker = worker;
    return worker;
  }

  private onEvent(event: MirrorEvent): void {
    if (event.kind === 'answer') {
      const pending = this.requests.get(event.request);
      this.requests.delete(event.request);
      if (this.requests.size === 0) this.worker?.unref();
      pending?.resolve(event.value === undefined ? pending.fallback : event.value);
      return;
    }
    const subscriber = this.subscribers.get(event.mirror);
    if (event.kind === 'parsed') subscriber?.parsed(event.bytes);
    else subscriber?.modes({ alternateScreen: event.alternateScreen, bracketedPaste: event.bracketedPaste });
  }

  private onExit(worker: Worker, reason: string): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    // Commands still queued were for the old thread's mirrors; the subscribers open new ones.
    this.queue = [];
    this.queuedBytes = 0;
    const pending = [...this.requests.values()];
    this.requests.clear();
    for (const request of pending) request.resolve(request.fallback);
    for (const subscriber of [...this.subscribers.values()]) subscriber.lost(reason);
  }
}

let shared: MirrorThread | undefined;

/** The process's mirror thread (started with the first pane). */
export function mirrorThread(): MirrorThread {
  shared ??= new MirrorThread();
  return shared;
}

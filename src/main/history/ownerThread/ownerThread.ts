import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { unpackedPath } from '../../packaged/unpackedPath';
import type { HistoryResult } from '../historyRecord';
import type { Operation, OwnerResponse } from '../ownerProtocol';
import type { FromOwnerThread, OwnerThreadData, ToOwnerThread } from './ownerThreadMessages';

export interface OwnerThreadEvents {
  result(response: OwnerResponse): void;
  report(message: string): void;
  /** The thread ended without being closed (it crashed or was killed): its calls are unanswered. */
  died(reason: string): void;
}

/** The thread could not be started or did not load: the caller may own the database in its own thread instead. */
export class OwnerThreadUnavailable extends Error {}

/** The owner address cannot be used at all (a socket path too long …): waiting will not help. */
export class OwnerAddressUnusable extends Error {}

/** A thread that has not loaded and tried to take the database by then is given up. */
const START_TIMEOUT_MS = 60_000;

/**
 * The history owner (historyOwner.ts) in a worker thread of this process: the database, its
 * socket server and retention run there, and this process's own calls reach it by message,
 * like other processes' calls reach it by socket. The thread never keeps the process alive
 * by itself: only while a call waits for its answer.
 */
export class OwnerThread {
  private closing = false;
  private exited = false;
  private waiting = 0;

  private constructor(
    private readonly worker: Worker,
    private readonly events: OwnerThreadEvents,
  ) {}

  /**
   * Starts a thread that tries to become the owner. Resolves with it when it did, null when
   * another live process owns the database (the thread has ended); rejects with
   * OwnerAddressUnusable or OwnerThreadUnavailable.
   */
  static async start(data: OwnerThreadData, events: OwnerThreadEvents, location?: URL | string): Promise<OwnerThread | null> {
    let script: URL | string;
    try {
      script = location ?? (await bundledWorkerLocation());
    } catch (error) {
      throw new OwnerThreadUnavailable(`the history thread's script cannot be found: ${(error as Error).message}`);
    }
    return new Promise((resolve, reject) => {
      let worker: Worker;
      try {
        worker = new Worker(script, { name: 'tandem-history', workerData: data });
      } catch (error) {
        reject(new OwnerThreadUnavailable(`the history thread could not be started: ${(error as Error).message}`));
        return;
      }
      worker.unref();
      let thread: OwnerThread | null = null;
      let failure: Error | undefined;
      const timer = setTimeout(() => {
        failure = new Error(`it did not load within ${START_TIMEOUT_MS / 1000} s`);
        void worker.terminate();
      }, START_TIMEOUT_MS);
      timer.unref();
      worker.on('error', (error) => (failure = error));
      worker.on('message', (message: FromOwnerThread) => {
        if (message.kind === 'report') events.report(message.message);
        else if (message.kind === 'result') thread?.answered(message.id, message.result);
        else if (message.kind === 'elected') {
          clearTimeout(timer);
          if (message.error) reject(new OwnerAddressUnusable(message.error));
          else if (!message.owner) resolve(null);
          else resolve((thread = new OwnerThread(worker, events)));
        }
      });
      worker.on('exit', (code) => {
        clearTimeout(timer);
        const reason = `${failure?.message ?? 'it exited'} (exit code ${code})`;
        if (thread) thread.ended(reason);
        else reject(new OwnerThreadUnavailable(`the history thread stopped before it could open the database: ${reason}`));
      });
    });
  }

  get isOpen(): boolean {
    return !this.closing && !this.exited;
  }

  /** The worker, for tests that make it crash. */
  get currentWorker(): Worker {
    return this.worker;
  }

  send(id: number, op: Operation, args: unknown): void {
    if (this.waiting++ === 0) this.worker.ref();
    this.worker.postMessage({ kind: 'call', id, op, args } satisfies ToOwnerThread);
  }

  /** Closes the database and lets go of the owner address; resolves once the thread has ended. */
  async close(): Promise<void> {
    if (this.exited) return;
    const exit = new Promise((resolve) => this.worker.once('exit', resolve));
    if (!this.closing) {
      this.closing = true;
      // Held until it has closed the file, so a process that exits next leaves it clean.
      this.worker.ref();
      this.worker.postMessage({ kind: 'close' } satisfies ToOwnerThread);
    }
    await exit;
  }

  private answered(id: number, result: HistoryResult<unknown>): void {
    if (--this.waiting === 0) this.worker.unref();
    this.events.result({ id, ...result });
  }

  private ended(reason: string): void {
    this.exited = true;
    if (!this.closing) this.events.died(reason);
  }
}

/**
 * The built worker script; in a packaged app, its copy unpacked from the asar. Imported when
 * first needed: a process that never starts the thread (the CLI, a script run from source)
 * never resolves electron-vite's `?modulePath`.
 */
async function bundledWorkerLocation(): Promise<URL> {
  const { default: path } = await import('./ownerWorker?modulePath');
  return isAbsolute(path) ? pathToFileURL(unpackedPath(path)) : new URL(path);
}

import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { OwnerConnection } from './historyClient';
import { HistoryOwner } from './historyOwner';
import type { BlockRecord, ForgetRequest, HistoryResult, HistoryStats, RecordOutcome, SearchQuery, StoredRecord } from './historyRecord';
import type { Migration } from './migrations';
import { ownerAddress, type OwnerAddress } from './ownerLock';
import { encodeRequest, MAX_LINE_BYTES, type Operation, type OwnerResponse } from './ownerProtocol';
import type { RetentionSettings } from './retention';
import { OwnerThread, OwnerThreadUnavailable } from './ownerThread/ownerThread';

export interface HistoryStoreOptions {
  /** The database file (`tandemPaths().historyFile`). */
  file: string;
  /** Told what went wrong with the file (moved aside, refused, retention failed); the engine log in the app. */
  report?: (message: string) => void;
  /** Applied by whichever process owns the database. */
  retention?: RetentionSettings;
  /** How long a call keeps trying to reach an owner, or to become one, before it fails. */
  handoverTimeoutMs?: number;
  address?: OwnerAddress;
  migrations?: readonly Migration[];
  /**
   * Where this process runs the database when it is the owner: in a worker thread (`worker`:
   * the engine, whose event loop must never wait for SQL), or in the calling thread (`this`,
   * the default: short-lived commands such as `tandem history`, which have no loop to keep free
   * and would pay for starting a thread). If the thread cannot be started, the database is run
   * in the calling thread, and `report` is told.
   */
  ownerIn?: 'worker' | 'this';
  /** The owner thread's script (tests). */
  ownerWorkerLocation?: URL | string;
}

interface Pending {
  op: Operation;
  args: unknown;
  settle: (result: HistoryResult<unknown>) => void;
  /** How many connections it was sent on: a request that every owner drops must not go round for ever. */
  sends: number;
}

const MAX_SENDS = 5;

const FIRST_BACKOFF_MS = 5;
const MAX_BACKOFF_MS = 250;
/** The longest close waits for a takeover under way (a thread that never loads takes a minute to fail). */
const CLOSE_WAITS_FOR_TAKEOVER_MS = 10_000;

/**
 * Tandem's block history, the same from every process (the app, `tandem web`, headless agents,
 * `tandem history`). One process owns the database (historyOwner.ts); the others send it their
 * calls over its socket. When the owner exits or dies, the others race to take over, and
 * whatever was in flight is sent again to the new owner: writes carry keys, so a write the old
 * owner had already stored is not stored twice. Every call resolves with a value or a clear
 * error, never a throw.
 */
export class HistoryStore {
  private owner: HistoryOwner | null = null;
  private thread: OwnerThread | null = null;
  private connection: OwnerConnection | null = null;
  private ownerIn: 'worker' | 'this';
  private electing: Promise<void> | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;
  private readonly address: OwnerAddress;

  private constructor(private readonly options: HistoryStoreOptions) {
    this.address = options.address ?? ownerAddress(options.file);
    this.ownerIn = options.ownerIn ?? 'this';
  }

  static async open(options: HistoryStoreOptions): Promise<HistoryStore> {
    const store = new HistoryStore(options);
    await store.elect();
    return store;
  }

  /** Whether this process has the database open (the others are its clients). */
  get isOwner(): boolean {
    return this.owner !== null || this.thread !== null;
  }

  /** The owner thread's worker when this process owns the database in one (tests make it crash). */
  get ownerWorker(): OwnerThread['currentWorker'] | undefined {
    return this.thread?.currentWorker;
  }

  /**
   * Stores finished blocks. The store does not scrub: the recorder removes secrets from every
   * field before it calls this. Records without a `key` get one here, before the first send.
   */
  record(batch: readonly BlockRecord[]): Promise<HistoryResult<RecordOutcome>> {
    const keyed = Array.isArray(batch) ? batch.map(withKey) : batch;
    return this.call('record', keyed);
  }

  search(query: SearchQuery = {}): Promise<HistoryResult<StoredRecord[]>> {
    return this.call('search', query);
  }

  /** The record and up to `count` commands either side of it in its session, oldest first. */
  neighbours(id: number, count: number): Promise<HistoryResult<StoredRecord[]>> {
    return this.call('neighbours', { id, count });
  }

  /** Deletes the given records, or all a search matches; resolves with how many were deleted. */
  forget(request: ForgetRequest): Promise<HistoryResult<number>> {
    return this.call('forget', request);
  }

  stats(): Promise<HistoryResult<HistoryStats>> {
    return this.call('stats', undefined);
  }

  /**
   * Lets go of the database (another process may take it over); resolves once the owner thread
   * has closed it, and once a takeover under way has ended (what it opened closed again), so
   * nothing of this store touches the file after.
   */
  close(): Promise<void> {
    this.closed = true;
    this.owner?.close();
    this.owner = null;
    const thread = this.thread;
    this.thread = null;
    this.connection?.close();
    this.connection = null;
    this.failPending('the history store was closed');
    return Promise.all([thread?.close(), this.electing && withinMs(this.electing, CLOSE_WAITS_FOR_TAKEOVER_MS)]).then(() => undefined);
  }

  private call<T>(op: Operation, args: unknown): Promise<HistoryResult<T>> {
    if (this.closed) return Promise.resolve({ ok: false, error: 'the history store is closed' });
    return new Promise((settle) => {
      const id = this.nextId++;
      this.pending.set(id, { op, args, settle: settle as Pending['settle'], sends: 0 });
      this.dispatch(id);
    });
  }

  private dispatch(id: number): void {
    const request = this.pending.get(id);
    if (!request) return;
    if (this.owner) {
      this.pending.delete(id);
      request.settle(this.owner.handle(request.op, request.args));
    } else if (this.thread?.isOpen) {
      if (++request.sends > MAX_SENDS) {
        this.pending.delete(id);
        request.settle({ ok: false, error: `the history owner thread stopped during this ${request.op} request ${MAX_SENDS} times; it was given up` });
        return;
      }
      try {
        this.thread.send(id, request.op, request.args);
      } catch (error) {
        this.pending.delete(id);
        request.settle({ ok: false, error: `this history ${request.op} request cannot be sent: ${(error as Error).message}` });
      }
    } else if (this.connection?.isOpen) {
      const line = encodeRequest({ id, op: request.op, args: request.args });
      if (line && ++request.sends <= MAX_SENDS) {
        this.connection.send(line);
        return;
      }
      this.pending.delete(id);
      request.settle({
        ok: false,
        error: line
          ? `the history owner dropped this ${request.op} request ${MAX_SENDS} times; it was given up`
          : `this history ${request.op} request is over ${MAX_LINE_BYTES / 1048576} MiB; send it in smaller batches`,
      });
    } else {
      void this.elect();
    }
  }

  private settle(response: OwnerResponse): void {
    const request = this.pending.get(response.id);
    if (!request) return;
    this.pending.delete(response.id);
    const { id: _id, ...result } = response;
    request.settle(result);
  }

  private elect(): Promise<void> {
    this.electing ??= this.runElection().finally(() => (this.electing = null));
    return this.electing;
  }

  /** Becomes the owner or connects to the one there is, retrying while a dying owner lets go; then sends what waits. */
  private async runElection(): Promise<void> {
    const deadline = Date.now() + (this.options.handoverTimeoutMs ?? 30_000);
    let backoff = FIRST_BACKOFF_MS;
    while (!this.closed) {
      try {
        if (await this.becomeOwnerOrClient()) break;
      } catch (error) {
        // The socket cannot be made at all (no permission, a path too long): waiting will not help.
        this.failPending(`The history database ${this.options.file} cannot be shared between processes: ${(error as Error).message}`);
        return;
      }
      if (Date.now() > deadline) {
        this.failPending(`No process could open the history database ${this.options.file}: its owner did not answer`);
        return;
      }
      await sleep(backoff);
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
    }
    for (const id of [...this.pending.keys()]) this.dispatch(id);
  }

  private async becomeOwnerOrClient(): Promise<boolean> {
    // With a thread to start, an owner that is already there is asked first: that is cheaper.
    if (this.ownerIn === 'worker') return (await this.becomeClient()) || (await this.becomeOwnerThread());
    return (await this.becomeOwnerHere()) || (await this.becomeClient());
  }

  private async becomeOwnerHere(): Promise<boolean> {
    const { file, report = () => {}, retention, migrations } = this.options;
    const owner = await HistoryOwner.start({ file, address: this.address, report, retention, migrations });
    if (!owner) return false;
    if (this.closed) owner.close();
    else this.owner = owner;
    return true;
  }

  private async becomeOwnerThread(): Promise<boolean> {
    const { file, report = () => {}, retention, migrations } = this.options;
    let thread: OwnerThread | null;
    try {
      thread = await OwnerThread.start(
        { file, address: this.address, retention, migrations },
        {
          result: (response) => this.settle(response),
          report,
          died: (reason) => this.threadDied(thread, reason),
        },
        this.options.ownerWorkerLocation,
      );
    } catch (error) {
      if (!(error instanceof OwnerThreadUnavailable)) throw error;
      report(`${error.message}; the history database is run in the engine's own thread instead`);
      this.ownerIn = 'this';
      return this.becomeOwnerHere();
    }
    if (!thread) return false;
    if (this.closed) await thread.close();
    else this.thread = thread;
    return true;
  }

  private async becomeClient(): Promise<boolean> {
    const connection: OwnerConnection | null = await OwnerConnection.connect(
      this.address,
      (response) => this.settle(response),
      () => this.connectionLost(connection),
    );
    if (!connection) return false;
    if (this.closed) connection.close();
    else this.connection = connection;
    return true;
  }

  /** The owner thread crashed or was killed: its calls are sent again to whoever owns the database next. */
  private threadDied(thread: OwnerThread | null, reason: string): void {
    if (this.thread !== thread || this.closed) return;
    this.thread = null;
    this.options.report?.(`The history owner thread stopped unexpectedly (${reason}); the database is being taken over again, and calls in flight are sent again.`);
    void this.elect();
  }

  private connectionLost(connection: OwnerConnection | null): void {
    if (this.connection !== connection || this.closed) return;
    this.connection = null;
    // Take over at once, not at the next call: the dead owner's clients need a new one.
    void this.elect();
  }

  private failPending(error: string): void {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const request of waiting) request.settle({ ok: false, error });
  }
}

function withKey(record: BlockRecord): BlockRecord {
  return typeof record === 'object' && record !== null && record.key === undefined ? { ...record, key: randomUUID() } : record;
}

/** `promise` settled, or `ms` passed: whichever comes first; never rejects. */
function withinMs(promise: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
    promise.then(
      () => resolve(),
      () => resolve(),
    ).finally(() => clearTimeout(timer));
  });
}

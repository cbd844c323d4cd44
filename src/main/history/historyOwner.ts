import type { Socket } from 'node:net';
import { HistoryDatabase } from './historyDatabase';
import type { HistoryResult } from './historyRecord';
import { runOperation } from './historyOperations';
import type { Migration } from './migrations';
import { isDamage } from './openDatabaseFile';
import { takeOwnership, type OwnerAddress, type Ownership } from './ownerLock';
import { ownerRequestSchema, readLines, writeLine, type Operation } from './ownerProtocol';
import { RetentionSchedule, type RetentionSettings } from './retention';
import { MIGRATIONS } from './schema';

export interface OwnerOptions {
  file: string;
  address: OwnerAddress;
  report: (message: string) => void;
  retention?: RetentionSettings;
  migrations?: readonly Migration[];
  /**
   * Builds the search index (ranking/commandIndex.ts) right after opening, so the first search
   * as you type does not wait for it: the owner thread of a long-lived process does; the CLI
   * builds it only if a search needs it.
   */
  prepareIndex?: boolean;
}

/**
 * The one process that has the history database open. It holds the owner address (the lock),
 * opens the file, and serves its own calls and its clients' requests from the same connection.
 * If the file cannot be opened (a newer schema, no permission), it keeps the lock and answers
 * every request with that reason, so every process sees the same clear error.
 */
export class HistoryOwner {
  private db: HistoryDatabase | null = null;
  private openError = '';
  private readonly clients = new Set<Socket>();
  private readonly retention: RetentionSchedule;
  private ownership: Ownership | null = null;

  private constructor(private readonly options: OwnerOptions) {
    this.retention = new RetentionSchedule(options.retention ?? {}, () => this.db, options.report);
  }

  /** Becomes the owner, or resolves null when a live process already is. */
  static async start(options: OwnerOptions): Promise<HistoryOwner | null> {
    const owner = new HistoryOwner(options);
    const ownership = await takeOwnership(options.address, (socket) => owner.serve(socket));
    if (!ownership) return null;
    owner.ownership = ownership;
    owner.reopen(false);
    owner.retention.start();
    if (options.prepareIndex) setImmediate(() => owner.prepareIndex());
    return owner;
  }

  private reopen(fullCheck: boolean): void {
    const { file, report, migrations = MIGRATIONS } = this.options;
    this.db?.close();
    this.db = null;
    try {
      this.db = HistoryDatabase.open(file, report, migrations, fullCheck);
    } catch (error) {
      this.openError = `The history database ${file} could not be opened: ${(error as Error).message}`;
      report(this.openError);
    }
  }

  private prepareIndex(): void {
    try {
      this.db?.prepareIndex();
    } catch (error) {
      // The first search that needs it tries again, and reports what fails then.
      this.options.report(`The history search index could not be built: ${(error as Error).message}`);
    }
  }

  handle(op: Operation, args: unknown): HistoryResult<unknown> {
    if (!this.db) return { ok: false, error: this.openError || 'the history store is closed' };
    const result = runOperation(this.db, op, args);
    if (result.ok || !isDamage(result.error)) return result;
    // A damaged page the open did not check: check every page now (a damaged file is moved
    // aside and a new one started, openDatabaseFile.ts), then try the call once more.
    this.reopen(true);
    return this.db ? runOperation(this.db, op, args) : result;
  }

  /**
   * Closes the database first, so a successor never finds the file still held, then gives up
   * the address; clients see their connection end and elect a new owner.
   */
  close(): void {
    this.retention.stop();
    this.db?.close();
    this.db = null;
    this.openError = 'the history store is closed';
    for (const socket of this.clients) socket.destroy();
    this.ownership?.close();
    this.ownership = null;
  }

  private serve(socket: Socket): void {
    this.clients.add(socket);
    socket.on('close', () => this.clients.delete(socket));
    socket.on('error', () => {});
    readLines(socket, (line) => {
      let request;
      try {
        request = ownerRequestSchema.safeParse(JSON.parse(line));
      } catch {
        request = null;
      }
      if (!request?.success) {
        // Without a valid id there is nobody to answer: the peer does not speak this protocol.
        socket.destroy();
        return;
      }
      const { id, op, args } = request.data;
      writeLine(socket, { id, ...this.handle(op, args) });
    });
  }
}

import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Settings } from '../../../shared/settings';
import type { EngineLog } from '../../log/engineLog';
import type { HistoryResult, SearchQuery, StoredRecord } from '../historyRecord';
import { HistoryStore } from '../historyStore';
import { BlockAuthors, type Authorship } from './blockAuthors';
import { BlockRecorder, type RecordedPane } from './blockRecorder';

const UNAVAILABLE = { ok: false, error: 'the history database could not be opened (the engine log says why)' } as const;

export interface EngineHistoryOptions {
  file: string;
  settings(): Settings['history'];
  log: Pick<EngineLog, 'warning'>;
  /** How long finished blocks wait to be written together. */
  batchMs?: number;
  /** The history owner thread's script (tests run it from source); the bundled one by default. */
  ownerWorkerLocation?: URL | string;
}

/**
 * The engine's side of the block history: the recorder of its panes, who typed which block,
 * and the store (opened on first use, shared with every other Tandem process through its
 * owner). The agent's `search_history` reads through it.
 */
export class EngineHistory {
  readonly authors = new BlockAuthors();
  readonly recorder: BlockRecorder;
  /** This engine's run; its blocks are one session's neighbours. */
  readonly session = randomUUID();
  private opening: Promise<HistoryStore | undefined> | undefined;
  private closed = false;

  constructor(private readonly options: EngineHistoryOptions) {
    this.recorder = new BlockRecorder({
      settings: options.settings,
      store: () => this.store(),
      authors: this.authors,
      host: hostname(),
      session: this.session,
      report: (message) => options.log.warning('history', message),
      batchMs: options.batchMs,
    });
  }

  watch(pane: RecordedPane) {
    return this.recorder.watch(pane);
  }

  /** The agent typed this block (claimed when it starts). */
  claim(blockId: string, authorship: Authorship): void {
    this.authors.claim(blockId, authorship);
  }

  async search(query: SearchQuery): Promise<HistoryResult<StoredRecord[]>> {
    const store = await this.store();
    return store ? store.search(query) : UNAVAILABLE;
  }

  /** The record and up to `count` commands either side of it in its session, oldest first. */
  async neighbours(id: number, count: number): Promise<HistoryResult<StoredRecord[]>> {
    const store = await this.store();
    return store ? store.neighbours(id, count) : UNAVAILABLE;
  }

  /** Deletes these records, or every run of these commands; resolves with how many there were. */
  async forget(request: { ids: number[] } | { commands: string[] }): Promise<HistoryResult<number>> {
    const store = await this.store();
    return store ? store.forget(request) : UNAVAILABLE;
  }

  /** Writes what waits and lets go of the database (another process may take it over). */
  async close(): Promise<void> {
    await this.recorder.flush();
    this.closed = true;
    await (await this.opening)?.close();
  }

  private store(): Promise<HistoryStore | undefined> {
    if (this.closed) return Promise.resolve(undefined);
    this.opening ??= this.open();
    return this.opening;
  }

  private async open(): Promise<HistoryStore | undefined> {
    const { max_days, max_mb } = this.options.settings();
    try {
      return await HistoryStore.open({
        file: this.options.file,
        report: (message) => this.options.log.warning('history', message),
        retention: { maxDays: max_days || undefined, maxMb: max_mb || undefined },
        // No SQL on the engine's event loop: it carries every keystroke and output chunk.
        ownerIn: 'worker',
        ownerWorkerLocation: this.options.ownerWorkerLocation,
      });
    } catch (error) {
      this.options.log.warning('history', `the history database ${this.options.file} could not be opened; blocks are not recorded`, error);
      return undefined;
    }
  }
}

import type { Block } from '../../../shared/blocks';
import type { Disposable } from '../../../shared/events';
import type { Settings } from '../../../shared/settings';
import type { PaneWatcher } from '../../panes/paneWatcher';
import { shellName } from '../../panes/shellName';
import type { BlockRecord } from '../historyRecord';
import type { HistoryStore } from '../historyStore';
import type { BlockAuthors } from './blockAuthors';
import { blockRecordOf, type BlockPlace } from './blockRecordOf';
import { CommandExclusion } from './commandExclusion';
import { GitPlaces } from './gitPlaces';

/** What the recorder reads of a pane. */
export interface RecordedPane {
  readonly id: number;
  readonly shellName: string;
  /** The remote shell the pane is on now (reached with `ssh`), absent on this machine. */
  readonly remote?: { readonly shell?: string };
  observe(watcher: PaneWatcher): Disposable;
  outputOf(blockId: string): Promise<{ text: string } | undefined>;
}

export interface BlockRecorderOptions {
  settings(): Settings['history'];
  /** The store, opened on the first write; undefined when it cannot be opened (already reported). */
  store(): Promise<HistoryStore | undefined>;
  authors: BlockAuthors;
  /** This machine's name, for the blocks of local shells (a remote block names its own host). */
  host: string;
  session: string;
  /** Told (once per kind of failure) that records could not be written; the engine log. */
  report(message: string): void;
  /** How long finished blocks wait to be written together (default 500 ms). */
  batchMs?: number;
}

/** A batch is written once this many records wait, without waiting for the timer. */
const BATCH_RECORDS = 50;
const BATCH_MS = 500;
/** A record needs a host; a remote that gave no name for itself is still not this machine. */
export const UNNAMED_HOST = 'unnamed-host';

/**
 * Turns every finished block of the panes it watches into a history record. Nothing happens on
 * the keystroke or output path: when a block ends, its output is read from the pane's mirror,
 * its directory's git repository and branch are looked up (gitPlaces.ts), the text is
 * scrubbed and cut (blockRecordOf), and the record waits for a batch, which is written after a
 * short timer or once enough records wait. Private panes, blocks while `[history] enabled` is
 * off, commands starting with a blank and `exclude` matches are not kept. A failed write is
 * reported once, never thrown at the pane.
 */
export class BlockRecorder {
  private readonly privatePanes = new Set<number>();
  private waiting: BlockRecord[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** Blocks whose output is being read, and batches being written: `flush` waits for them. */
  private readonly inFlight = new Set<Promise<unknown>>();
  private exclusion = new CommandExclusion([]);
  private lastFailure: string | undefined;
  private readonly gitPlaces = new GitPlaces();

  constructor(private readonly options: BlockRecorderOptions) {}

  watch(pane: RecordedPane): Disposable {
    return pane.observe({ blockFinished: (block) => this.finished(pane, block) });
  }

  setPrivate(paneId: number, on: boolean): void {
    if (on) this.privatePanes.add(paneId);
    else this.privatePanes.delete(paneId);
  }

  isPrivate(paneId: number): boolean {
    return this.privatePanes.has(paneId);
  }

  paneClosed(paneId: number): void {
    this.privatePanes.delete(paneId);
  }

  /** Writes what waits, once the blocks that finished by now are read. */
  async flush(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    this.write();
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private finished(pane: RecordedPane, block: Block): void {
    const authorship = this.options.authors.take(block.id);
    const settings = this.options.settings();
    if (!settings.enabled || this.privatePanes.has(pane.id) || !block.command.trim()) return;
    if (this.exclusion.patterns !== settings.exclude) this.exclusion = new CommandExclusion(settings.exclude);
    if (this.exclusion.excludes(block.command)) return;
    const place: BlockPlace = { ...this.where(pane, block), pane: `${this.options.session}/${pane.id}`, session: this.options.session };
    const output = (settings.keep_output === 'none' ? Promise.resolve(undefined) : pane.outputOf(block.id)).catch(() => undefined);
    // A remote block's directory is on its host: this machine's repository at the same path is not its.
    const git = block.host !== undefined ? Promise.resolve(null) : this.gitPlaces.of(block.cwd).catch(() => null);
    const reading = Promise.all([output, git]).then(([read, gitPlace]) =>
      this.enqueue(blockRecordOf(block, settings.keep_output === 'none' ? undefined : (read?.text ?? ''), place, settings, authorship, gitPlace)),
    );
    this.track(reading);
  }

  /** The host a block ran on and its shell: a remote block's own (it ends while its shell is still the pane's), else this machine's. */
  private where(pane: RecordedPane, block: Block): Pick<BlockPlace, 'host' | 'shell'> {
    if (block.host === undefined) return { host: this.options.host, shell: pane.shellName };
    return { host: block.host || UNNAMED_HOST, shell: pane.remote?.shell ? shellName(pane.remote.shell) : '' };
  }

  private enqueue(record: BlockRecord): void {
    this.waiting.push(record);
    if (this.waiting.length >= BATCH_RECORDS) this.write();
    else this.timer ??= setTimeout(() => this.write(), this.options.batchMs ?? BATCH_MS);
  }

  private write(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.waiting.length === 0) return;
    const batch = this.waiting;
    this.waiting = [];
    this.track(this.store(batch));
  }

  private async store(batch: BlockRecord[]): Promise<void> {
    const store = await this.options.store();
    if (!store) return;
    const result = await store.record(batch);
    if (!result.ok) this.failed(`history records could not be written: ${result.error}`);
    else if (result.value.rejected.length > 0) this.failed(`history records were refused: ${result.value.rejected.map((item) => item.reason).join('; ')}`);
    else this.lastFailure = undefined;
  }

  /** The same failure again is not logged again until a write has worked. */
  private failed(message: string): void {
    if (message === this.lastFailure) return;
    this.lastFailure = message;
    this.options.report(message);
  }

  private track(work: Promise<unknown>): void {
    const tracked = work.catch((error: unknown) => this.failed(`history recording failed: ${error instanceof Error ? error.message : String(error)}`));
    this.inFlight.add(tracked);
    void tracked.finally(() => this.inFlight.delete(tracked));
  }
}

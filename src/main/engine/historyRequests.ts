import { hostname } from 'node:os';
import { isAbsolute } from 'node:path';
import type { Block } from '../../shared/blocks';
import { HISTORY_DIGEST_PREVIEW_CHARS, type HistoryEntry, type HistoryResults, type HistoryScope } from '../../shared/history';
import type { Params } from '../../shared/protocol';
import type { HistoryResult, StoredRecord } from '../history/historyRecord';
import type { EngineHistory } from '../history/recording/engineHistory';
import { UNNAMED_HOST } from '../history/recording/blockRecorder';
import { findGitPlace } from '../history/recording/gitPlaces';
import { UserError } from './engine';

/** What the history requests read of the engine. */
export interface HistoryRequestHost {
  history: Pick<EngineHistory, 'search' | 'neighbours' | 'forget' | 'session'> & { recorder: { flush(): Promise<void> } };
  /** The pane's blocks, cwd and the remote shell it is on (if it is), or undefined when there is no such pane. */
  pane(paneId: number): { blocks(): Block[]; readonly cwd: string; readonly remote?: { readonly host: string } } | undefined;
}

/**
 * The history search overlay's requests: the store's answers made into what the overlay shows
 * (no full output, the digest cut for the preview, the block a record came from when it is
 * still in a pane), and the store's errors made into messages the overlay shows.
 */
export class HistoryRequests {
  constructor(private readonly host: HistoryRequestHost) {}

  async search(params: Params<'history.search'>): Promise<HistoryResults['history.search']> {
    // A command that finished a moment ago is found too: its record is written now, not after the batch's wait.
    await this.host.history.recorder.flush();
    const records = answer(await this.host.history.search({ ...params, rank: 'relevance', fields: 'command' }), 'search');
    return { records: records.map((record) => this.entryOf(record)) };
  }

  async neighbours({ id, count }: Params<'history.neighbours'>): Promise<HistoryResults['history.neighbours']> {
    const records = answer(await this.host.history.neighbours(id, count), 'find the commands around it');
    if (records.length === 0) throw new UserError('That record is no longer in the history (it was forgotten or trimmed).');
    return { records: records.map((record) => this.entryOf(record)) };
  }

  async forget(request: Params<'history.forget'>): Promise<HistoryResults['history.forget']> {
    const which = 'ids' in request ? { ids: request.ids } : { commands: [request.command] };
    return { forgotten: answer(await this.host.history.forget(which), 'forget') };
  }

  async scope({ paneId }: Params<'history.scope'>): Promise<HistoryScope> {
    const pane = this.host.pane(paneId);
    if (!pane) throw new UserError(`There is no pane ${paneId}; it may have been closed.`);
    const cwd = pane.cwd;
    // "This host" is where the pane's shell runs: the remote host while it is on one (as its blocks are recorded).
    const scope = { cwd, host: pane.remote ? pane.remote.host || UNNAMED_HOST : hostname() };
    if (!cwd || !isAbsolute(cwd)) return { ...scope, repoRoot: null, repoUnknown: "The pane's directory is not known (its shell has no integration)" };
    if (pane.remote) return { ...scope, remote: true, repoRoot: null, repoUnknown: `The pane is on ${scope.host}: its repository is not looked up from this machine` };
    // Found as the recorder finds a block's, so the chip's filter matches what was stored.
    const repoRoot = (await findGitPlace(cwd))?.repoRoot;
    return repoRoot ? { ...scope, repoRoot } : { ...scope, repoRoot: null, repoUnknown: `${cwd} is not in a git repository` };
  }

  private entryOf(record: StoredRecord): HistoryEntry {
    const digest = record.outputDigest;
    return {
      id: record.id,
      command: record.command,
      cwd: record.cwd,
      host: record.host,
      otherHost: record.host !== hostname(),
      shell: record.shell,
      startedAt: record.startedAt,
      durationMs: record.durationMs,
      exitCode: record.exitCode,
      author: record.author,
      decision: record.decision,
      rule: record.rule,
      gitBranch: record.gitBranch,
      repoRoot: record.repoRoot,
      imported: record.imported,
      outputDigest: digest === null ? null : digest.slice(0, HISTORY_DIGEST_PREVIEW_CHARS),
      digestCut: digest !== null && digest.length > HISTORY_DIGEST_PREVIEW_CHARS,
      blockId: this.blockOf(record)?.id ?? null,
      ...(record.runs !== undefined && { runs: record.runs }),
    };
  }

  /** The block a record was made from, when it ran in this engine run and its pane is open (`<session>/<pane id>`, blockRecordOf.ts). */
  private blockOf(record: StoredRecord): Block | undefined {
    const session = this.host.history.session;
    if (record.session !== session || !record.pane?.startsWith(`${session}/`)) return undefined;
    const paneId = Number(record.pane.slice(session.length + 1));
    if (!Number.isInteger(paneId)) return undefined;
    return this.host.pane(paneId)?.blocks().find((block) => block.startedAt === record.startedAt && block.endedAt !== undefined);
  }
}

function answer<T>(result: HistoryResult<T>, what: string): T {
  if (result.ok) return result.value;
  throw new UserError(`The history could not ${what}: ${result.error}`);
}

import { blockFailed, type Block } from '../../../shared/blocks';
import { blockHost } from '../remote/remotePlace';

/** `quit`: the user quit a pager before the command was done (exit 141); grey, not red. */
export type BlockStatus = 'running' | 'success' | 'failure' | 'quit' | 'unknown';

export function blockStatus(block: Block): BlockStatus {
  if (block.endedAt === undefined) return 'running';
  if (block.exitCode === undefined) return 'unknown';
  if (block.exitCode === 0) return 'success';
  return blockFailed(block) ? 'failure' : 'quit';
}

/** How a finished block ended, in a few words: `exit 1`, `quit (exit 141)`. */
export function outcomeLabel(block: Block): string {
  const status = blockStatus(block);
  if (status === 'running') return 'running';
  if (status === 'unknown') return 'finished';
  return status === 'quit' ? `quit (exit ${block.exitCode ?? ''})` : `exit ${block.exitCode ?? ''}`;
}

export function formatDuration(milliseconds: number): string {
  if (milliseconds < 1_000) return `${Math.max(0, Math.round(milliseconds))} ms`;
  const seconds = milliseconds / 1_000;
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 2 : 1)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${Math.round(seconds % 60)} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** One line for tooltips: what ran, how it ended, how long it took, where (`alice@db1:/tmp` for a remote block). */
export function describeBlock(block: Block): string {
  const outcome = outcomeLabel(block);
  const duration = block.endedAt !== undefined ? ` · ${formatDuration(block.endedAt - block.startedAt)}` : '';
  const trust = block.trusted ? '' : ' · detected by heuristics or foreign marks';
  const host = blockHost(block);
  const place = host ? `${host}${block.cwd ? `:${block.cwd}` : ''}` : block.cwd;
  return `${block.command || '(unknown command)'}\n${outcome}${duration}${place ? ` · ${place}` : ''}${trust}`;
}

import type { Block } from '../../../shared/blocks';

export type BlockStatus = 'running' | 'success' | 'failure' | 'unknown';

export function blockStatus(block: Block): BlockStatus {
  if (block.endedAt === undefined) return 'running';
  if (block.exitCode === undefined) return 'unknown';
  return block.exitCode === 0 ? 'success' : 'failure';
}

export function formatDuration(milliseconds: number): string {
  if (milliseconds < 1_000) return `${Math.max(0, Math.round(milliseconds))} ms`;
  const seconds = milliseconds / 1_000;
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 2 : 1)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${Math.round(seconds % 60)} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** One line for tooltips: what ran, how it ended, how long it took. */
export function describeBlock(block: Block): string {
  const status = blockStatus(block);
  const outcome =
    status === 'running'
      ? 'running'
      : status === 'unknown'
        ? 'finished'
        : `exit ${block.exitCode ?? ''}`;
  const duration = block.endedAt !== undefined ? ` · ${formatDuration(block.endedAt - block.startedAt)}` : '';
  const trust = block.trusted ? '' : ' · detected by heuristics or foreign marks';
  return `${block.command || '(unknown command)'}\n${outcome}${duration}${block.cwd ? ` · ${block.cwd}` : ''}${trust}`;
}

import { arch, release, type as osType } from 'node:os';
import { scrubEnvironment } from '../safety/secretScrubber';
import { blockIndexEntry, buildStandingContext, type BlockIndexEntry } from '../context/standingContext';
import type { AgentPane } from './agentPane';

/**
 * Builds the standing context of a request for the active pane. A finished block's index
 * row (line count, error flag) never changes, so it is computed once from the mirror and
 * kept; only new blocks cost a read.
 */
export class StandingContextCache {
  private readonly rows = new Map<string, BlockIndexEntry>();

  constructor(private readonly pane: (paneId: number) => AgentPane | undefined) {}

  /**
   * `includeEnv`: the variables the model may see (`[context] include_env`), with the pane's
   * values — what its shell exports — or, for a pane that cannot tell, `fallbackEnv`'s.
   */
  async build(paneId: number | undefined, maxBlocks: number, includeEnv: readonly string[] = [], fallbackEnv: Readonly<Record<string, string | undefined>> = {}): Promise<string> {
    const pane = paneId !== undefined ? this.pane(paneId) : undefined;
    const os = `${osType()} ${release()} (${arch()})`;
    if (!pane) return `Environment: ${os}. No terminal pane is open.`;
    const blocks = pane.blocks();
    // Only the listed blocks are read; older ones still count, so the index says "last N of M".
    const entries: BlockIndexEntry[] = blocks
      .slice(0, Math.max(0, blocks.length - maxBlocks))
      .map((block) => this.rows.get(block.id) ?? { block, lineCount: 0, hasErrors: false });
    for (const block of maxBlocks > 0 ? blocks.slice(-maxBlocks) : []) {
      const cached = this.rows.get(block.id);
      if (cached) {
        entries.push(cached);
        continue;
      }
      const entry = blockIndexEntry(block, await pane.outputOf(block.id));
      if (block.endedAt !== undefined) this.rows.set(block.id, entry);
      entries.push(entry);
    }
    if (this.rows.size > 5_000) this.rows.clear();
    const remote = pane.remote;
    return buildStandingContext({
      os,
      shell: pane.shellName,
      cwd: pane.cwd,
      paneId: pane.id,
      blocks: entries,
      now: Date.now(),
      maxBlocks,
      // What the pane reports it exports is the local shell's; the remote shell's variables are not known here.
      environment: remote ? {} : scrubEnvironment(pane.environment?.() ?? fallbackEnv, includeEnv),
      remote,
    });
  }
}

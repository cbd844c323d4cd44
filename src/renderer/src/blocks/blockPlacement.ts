import type { Block } from '../../../shared/blocks';
import type { SnapshotBlock } from '../../../shared/protocol';
import type { BlockMarkers } from './blockMarkers';

/**
 * Puts a pane's block edges where the engine says they are; it decides nothing itself.
 * Live edges: each block event is applied when the pane's output queue reaches it, that is
 * once xterm has parsed every byte before it, so the cursor is at the edge. Blocks inside a
 * snapshot: at the rows and columns the engine lists for them, right after the snapshot is
 * parsed.
 */
export class BlockPlacement {
  /** Live output continues at this stream offset: blocks that began before it are placed from the listing only. */
  private snapshotEndOffset = 0;

  constructor(private readonly markers: BlockMarkers) {}

  /** A block event reached in the stream: block.started places the start, block.finished the end. */
  placeAtCursor(block: Block): void {
    if (block.endedAt !== undefined) {
      this.markers.markEndAtCursor(block.id);
    } else if (block.outputOffset >= this.snapshotEndOffset) {
      // A block that began inside the snapshot but is not listed there lies above its scrollback.
      this.markers.markStartAtCursor(block.id, block.command);
    }
  }

  /**
   * Call once the snapshot is parsed (the cursor is where it leaves it); `streamOffset` is
   * where live output continues. `blocks` names the commands; a listed block without an end
   * still runs and ends with a live event.
   */
  placeSnapshot(listed: readonly SnapshotBlock[], blocks: readonly Block[], streamOffset: number): void {
    this.snapshotEndOffset = streamOffset;
    const commands = new Map(blocks.map((block) => [block.id, block.command]));
    for (const { blockId, start, end, cleared } of listed) {
      if (cleared) this.markers.markClearedStartAt(blockId, start.row);
      else this.markers.markStartAt(blockId, start.row, start.column, commands.get(blockId) ?? '');
      if (end) this.markers.markEndAt(blockId, end.row, end.column);
    }
  }

  /** A new shell in the same terminal: its blocks start afresh, after the old scrollback. */
  reset(): void {
    this.snapshotEndOffset = 0;
    this.markers.forgetAll();
  }
}

import type { IDisposable, Terminal } from '@xterm/xterm';
import type { Block } from '../../../shared/blocks';
import type { SnapshotBlock } from '../../../shared/protocol';
import { BlockMarkers } from './blockMarkers';
import { BlockPlacement } from './blockPlacement';
import { BlockPositioner } from './blockPositioner';

/**
 * One pane's blocks on its terminal: their edges (BlockMarkers), placed where the stream
 * says (BlockPlacement), and their elements kept over their rows (BlockPositioner) as the
 * terminal writes, renders, resizes and switches screens.
 */
export class PaneBlocks {
  readonly markers: BlockMarkers;
  readonly positioner: BlockPositioner;
  private readonly placement: BlockPlacement;
  private readonly listeners: IDisposable[];

  constructor(terminal: Terminal) {
    this.markers = new BlockMarkers(terminal, () => this.positioner.invalidate());
    this.positioner = new BlockPositioner(terminal, this.markers);
    this.placement = new BlockPlacement(this.markers);
    const invalidate = () => this.positioner.invalidate();
    this.listeners = [
      // Once per parsed write (so blocks move in the same frame as the text), and after any
      // render (a scrolled viewport). Not per line feed or scrolled line: a flood has
      // hundreds of thousands, and listening to them slows xterm down measurably.
      terminal.onWriteParsed(invalidate),
      terminal.onResize(() => this.positioner.invalidateGeometry()),
      terminal.onRender(invalidate),
      terminal.buffer.onBufferChange(invalidate),
      this.markers.watchScreenClears(),
    ];
  }

  /** A live block event, applied once the output before it is parsed. */
  placeAtCursor(block: Block): void {
    this.placement.placeAtCursor(block);
  }

  /** The blocks of a snapshot the terminal has just parsed; see BlockPlacement.placeSnapshot. */
  placeSnapshot(listed: readonly SnapshotBlock[], blocks: readonly Block[], streamOffset: number): void {
    this.placement.placeSnapshot(listed, blocks, streamOffset);
  }

  /** A new shell in the same terminal: its blocks start afresh. */
  reset(): void {
    this.placement.reset();
  }

  /** The font or the pane's size changed: measure the rows again. */
  invalidateGeometry(): void {
    this.positioner.invalidateGeometry();
  }

  dispose(): void {
    this.listeners.forEach((listener) => listener.dispose());
    this.positioner.dispose();
    this.markers.forgetAll();
  }
}

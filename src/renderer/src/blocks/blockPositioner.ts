import type { Terminal } from '@xterm/xterm';
import type { BlockMarkers } from './blockMarkers';
import { durationPlacement } from './durationPlacement';

/** Room the block menu needs above a block (its 12px text, padding and border) to sit there. */
const MENU_ROOM_PX = 26;

interface Geometry {
  cellHeight: number;
  cellWidth: number;
  originX: number;
  originY: number;
}

/**
 * Keeps each block's DOM element over its rows. Runs at most once per animation frame, only
 * when something moved, and writes styles directly: scrolling never re-renders React.
 * Elements of blocks out of view stay in the DOM, hidden.
 *
 * The pane's geometry (row height, where the rows start) is measured only after a resize or
 * an appearance change: reading layout every frame while output scrolls would force the
 * browser to lay the page out twice per frame, and that slows a flood of output visibly.
 */
export class BlockPositioner {
  private readonly elements = new Map<string, HTMLElement>();
  /** What each element was last given, so unchanged styles are not written again. */
  private readonly applied = new Map<HTMLElement, string>();
  private layer: HTMLElement | undefined;
  private frame = 0;
  private geometry: Geometry | undefined;

  constructor(
    private readonly terminal: Terminal,
    private readonly markers: BlockMarkers,
  ) {}

  setLayer(layer: HTMLElement | undefined): void {
    this.layer = layer;
    this.invalidateGeometry();
  }

  /** The pane was resized or its font changed: measure again on the next frame. */
  invalidateGeometry(): void {
    this.geometry = undefined;
    this.invalidate();
  }

  register(blockId: string, element: HTMLElement | null): void {
    if (element) {
      this.elements.set(blockId, element);
      this.hide(element);
    } else {
      const previous = this.elements.get(blockId);
      if (previous) this.applied.delete(previous);
      this.elements.delete(blockId);
    }
    this.invalidate();
  }

  invalidate(): void {
    if (this.frame !== 0 || this.elements.size === 0) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.layout();
    });
  }

  dispose(): void {
    if (this.frame !== 0) cancelAnimationFrame(this.frame);
    this.frame = 0;
    this.elements.clear();
    this.applied.clear();
  }

  private measure(): Geometry | undefined {
    const screen = this.terminal.element?.querySelector<HTMLElement>('.xterm-screen');
    const rows = this.terminal.rows;
    if (!screen || !this.layer || rows <= 0 || screen.clientHeight === 0) return undefined;
    const screenBox = screen.getBoundingClientRect();
    const layerBox = this.layer.getBoundingClientRect();
    return {
      cellHeight: screen.clientHeight / rows,
      cellWidth: screen.clientWidth / Math.max(1, this.terminal.cols),
      originX: screenBox.left - layerBox.left,
      originY: screenBox.top - layerBox.top,
    };
  }

  private layout(): void {
    const buffer = this.terminal.buffer.active;
    const rows = this.terminal.rows;
    this.geometry ??= this.measure();
    if (!this.geometry || buffer.type !== 'normal') {
      this.elements.forEach((element) => this.hide(element));
      return;
    }
    const { cellHeight, cellWidth, originX, originY } = this.geometry;
    const viewportTop = buffer.viewportY;
    for (const [blockId, element] of this.elements) {
      const lines = this.markers.lines(blockId);
      if (!lines) {
        this.hide(element);
        continue;
      }
      const first = Math.max(lines.top - viewportTop, 0);
      const last = Math.min(lines.bottom - viewportTop, rows - 1);
      if (last < first) {
        this.hide(element);
        continue;
      }
      const commandRowsVisible = Math.max(0, Math.min(lines.commandBottom - viewportTop, rows - 1) - first + 1);
      const clipped = lines.top - viewportTop < 0 ? 'top' : '';
      const top = originY + first * cellHeight;
      // The menu never covers the block's command line: above it when there is room, else under it.
      const menuAt = clipped ? 'top' : top >= MENU_ROOM_PX ? 'above' : 'below';
      const durationAt = this.durationAt(first + viewportTop, commandRowsVisible, Number(element.dataset.labelCells) || undefined);
      const key = `${first}:${last}:${commandRowsVisible}:${clipped}:${cellHeight}:${cellWidth}:${originY}:${durationAt}`;
      if (this.applied.get(element) === key) continue;
      this.applied.set(element, key);
      element.style.display = '';
      element.style.top = `${top}px`;
      element.style.height = `${(last - first + 1) * cellHeight}px`;
      element.style.setProperty('--command-height', `${commandRowsVisible * cellHeight}px`);
      element.dataset.clipped = clipped;
      element.dataset.menuAt = menuAt;
      element.dataset.durationAt = typeof durationAt === 'number' ? 'left' : durationAt;
      if (typeof durationAt === 'number') element.style.setProperty('--duration-left', `${originX + durationAt * cellWidth}px`);
    }
  }

  /**
   * Where the row label (duration; a remote block's host) goes on the block's first command
   * row: 'right' (the edge), a column (after the command, when zsh's right prompt holds the
   * edge), or 'none' — no command row in view (scrolled off, or a `clear` erased it) or no
   * room on it. `labelCells`: the label's width when it is wider than a duration alone.
   */
  private durationAt(commandRow: number, commandRowsVisible: number, labelCells?: number): 'none' | 'right' | number {
    if (commandRowsVisible === 0) return 'none';
    const row = this.terminal.buffer.active.getLine(commandRow)?.translateToString() ?? '';
    const placement = durationPlacement(row, this.terminal.cols, labelCells);
    if (!placement) return 'none';
    return placement.align === 'right' ? 'right' : placement.column;
  }

  private hide(element: HTMLElement): void {
    if (this.applied.get(element) === 'hidden') return;
    this.applied.set(element, 'hidden');
    hide(element);
  }
}

function hide(element: HTMLElement): void {
  element.style.display = 'none';
}

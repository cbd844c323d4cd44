import type { Terminal } from '@xterm/xterm';
import type { BlockMarkers } from './blockMarkers';

/**
 * Keeps each block's DOM element over its rows. Runs at most once per animation frame, only
 * when something moved, and writes styles directly: scrolling never re-renders React.
 * Elements of blocks out of view stay in the DOM, hidden.
 */
export class BlockPositioner {
  private readonly elements = new Map<string, HTMLElement>();
  private layer: HTMLElement | undefined;
  private frame = 0;

  constructor(
    private readonly terminal: Terminal,
    private readonly markers: BlockMarkers,
  ) {}

  setLayer(layer: HTMLElement | undefined): void {
    this.layer = layer;
    this.invalidate();
  }

  register(blockId: string, element: HTMLElement | null): void {
    if (element) {
      this.elements.set(blockId, element);
      hide(element);
    } else {
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
  }

  private layout(): void {
    const screen = this.terminal.element?.querySelector<HTMLElement>('.xterm-screen');
    const buffer = this.terminal.buffer.active;
    const rows = this.terminal.rows;
    if (!screen || !this.layer || buffer.type !== 'normal' || rows <= 0 || screen.clientHeight === 0) {
      this.elements.forEach(hide);
      return;
    }
    const cellHeight = screen.clientHeight / rows;
    const originY = screen.getBoundingClientRect().top - this.layer.getBoundingClientRect().top;
    const viewportTop = buffer.viewportY;
    for (const [blockId, element] of this.elements) {
      const lines = this.markers.lines(blockId);
      if (!lines) {
        hide(element);
        continue;
      }
      const first = Math.max(lines.top - viewportTop, 0);
      const last = Math.min(lines.bottom - viewportTop, rows - 1);
      if (last < first) {
        hide(element);
        continue;
      }
      const commandRowsVisible = Math.max(0, Math.min(lines.commandBottom - viewportTop, rows - 1) - first + 1);
      element.style.display = '';
      element.style.top = `${originY + first * cellHeight}px`;
      element.style.height = `${(last - first + 1) * cellHeight}px`;
      element.style.setProperty('--command-height', `${commandRowsVisible * cellHeight}px`);
      element.dataset.clipped = lines.top - viewportTop < 0 ? 'top' : '';
    }
  }
}

function hide(element: HTMLElement): void {
  element.style.display = 'none';
}

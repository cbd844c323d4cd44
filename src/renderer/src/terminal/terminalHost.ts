import type { Terminal } from '@xterm/xterm';
import { FitAddon } from '@xterm/addon-fit';
import { FIT_DEBOUNCE_MS } from './flowPolicy';
import { WebglRendererSlot } from './webglRenderer';

/** What the host needs from its pane, asked each time (the pane id changes on restart). */
export interface TerminalHostOwner {
  paneId(): number;
  hasExited(): boolean;
  webglWanted(): boolean;
  /** The terminal now has this size; the engine's pty should too. False if the engine did not take it. */
  resize(paneId: number, cols: number, rows: number): Promise<boolean>;
  onFocus(paneId: number): void;
  /** The terminal's box or size changed: whatever is drawn over its rows measures again. */
  onGeometryChange(): void;
}

/**
 * Where a pane's terminal lives in the page: its host element (moved between containers as
 * the layout changes, never re-created), opening xterm once it has a visible place, fitting
 * it to its box and telling the engine the size, keyboard focus, and the GPU renderer.
 */
export class TerminalHost {
  readonly element: HTMLDivElement;
  private readonly fit = new FitAddon();
  private readonly resizeObserver: ResizeObserver;
  private readonly webgl: WebglRendererSlot;
  /** Identifies this pane in `latestFocusRequest`. */
  private readonly focusToken = Symbol('pane focus');
  private container: HTMLElement | undefined;
  private fitTimer = 0;
  private opened = false;
  private focusWhenOpened = false;
  private visible = false;
  private disposed = false;
  /** Sizes asked of the engine whose `pane.resized` the stream has not reached yet. */
  private resizesInFlight = 0;

  constructor(
    private readonly terminal: Terminal,
    private readonly owner: TerminalHostOwner,
    /** The size the engine's pty has, as far as this side knows. */
    private engineSize: { cols: number; rows: number },
  ) {
    terminal.loadAddon(this.fit);
    this.webgl = new WebglRendererSlot(terminal);
    this.element = document.createElement('div');
    this.element.className = 'pane-terminal-host';
    // A click in the pane gives the terminal the keyboard before the click is over: xterm
    // focuses its textarea only later, and keys typed right after a click were lost.
    this.element.addEventListener('click', () => {
      if (!this.isFocused) this.focus();
    });
    this.element.addEventListener('focusin', () => {
      latestFocusRequest = this.focusToken;
      this.owner.onFocus(this.owner.paneId());
    });
    this.resizeObserver = new ResizeObserver(() => {
      this.owner.onGeometryChange();
      this.scheduleFit();
    });
  }

  attach(container: HTMLElement): void {
    if (this.disposed || this.container === container) return;
    if (this.container) this.resizeObserver.unobserve(this.container);
    this.container = container;
    container.appendChild(this.element);
    this.resizeObserver.observe(container);
    this.openIfPlaced();
    this.scheduleFit();
  }

  detach(container: HTMLElement): void {
    if (this.container !== container) return;
    this.resizeObserver.unobserve(container);
    this.container = undefined;
    if (this.element.parentElement === container) this.element.remove();
  }

  setVisible(visible: boolean): void {
    if (this.visible === visible) return;
    this.visible = visible;
    if (visible) {
      this.openIfPlaced();
      this.scheduleFit();
    }
    // Browsers cap live WebGL contexts; hidden tabs give theirs back.
    this.updateWebgl();
  }

  /** The pane now runs a shell of this size (a restart). */
  setEngineSize(size: { cols: number; rows: number }): void {
    this.engineSize = size;
    this.resizesInFlight = 0;
  }

  /**
   * The pane's stream reached the point where the engine applied a resize (`pane.resized`): the
   * terminal takes that size right here, where the engine's mirror took it. Resized anywhere
   * else, the terminal would parse part of the stream at another size than the engine judged
   * it at: a flood skip counts the rows of the engine's size, and a resize resets the scroll
   * region and reflows lines, so the pane would no longer hold what the stream says.
   */
  engineResized(cols: number, rows: number): void {
    this.resizesInFlight = Math.max(0, this.resizesInFlight - 1);
    this.resizeTerminal(cols, rows);
  }

  focus(): void {
    latestFocusRequest = this.focusToken;
    if (this.opened) this.terminal.focus();
    else this.focusWhenOpened = true;
  }

  get isFocused(): boolean {
    return this.terminal.textarea !== undefined && document.activeElement === this.terminal.textarea;
  }

  scheduleFit(): void {
    window.clearTimeout(this.fitTimer);
    this.fitTimer = window.setTimeout(() => this.fitNow(), FIT_DEBOUNCE_MS);
  }

  updateWebgl(): void {
    this.webgl.update(this.opened && this.visible && this.owner.webglWanted());
  }

  dispose(): void {
    this.disposed = true;
    window.clearTimeout(this.fitTimer);
    this.resizeObserver.disconnect();
    this.webgl.dispose();
    this.element.remove();
  }

  private fitNow(): void {
    const container = this.container;
    if (this.disposed || !container || !this.visible) return;
    if (container.clientWidth === 0 || container.clientHeight === 0) return;
    this.openIfPlaced();
    const proposed = this.fit.proposeDimensions();
    if (!proposed || !Number.isFinite(proposed.cols) || !Number.isFinite(proposed.rows)) return;
    const cols = Math.max(2, Math.floor(proposed.cols));
    const rows = Math.max(1, Math.floor(proposed.rows));
    if (cols !== this.engineSize.cols || rows !== this.engineSize.rows) {
      this.engineSize = { cols, rows };
      if (!this.owner.hasExited()) this.askEngine(cols, rows);
    }
    // Nothing on its way from the engine (or no shell to ask): the terminal takes the box's size now.
    if (this.resizesInFlight === 0 || this.owner.hasExited()) this.resizeTerminal(cols, rows);
  }

  private resizeTerminal(cols: number, rows: number): void {
    if (cols !== this.terminal.cols || rows !== this.terminal.rows) this.terminal.resize(cols, rows);
    this.owner.onGeometryChange();
  }

  private askEngine(cols: number, rows: number): void {
    this.resizesInFlight++;
    void this.owner.resize(this.owner.paneId(), cols, rows).then((taken) => {
      if (taken) return;
      // No pane.resized comes for it (the pane closed, the connection dropped).
      this.resizesInFlight = Math.max(0, this.resizesInFlight - 1);
      if (this.resizesInFlight === 0) this.resizeTerminal(this.engineSize.cols, this.engineSize.rows);
    });
  }

  /**
   * The terminal opens as soon as it has a visible place, not at the (debounced) first fit:
   * a click and keys aimed at the pane must never land on an empty host and be lost.
   */
  private openIfPlaced(): void {
    const container = this.container;
    if (this.opened || this.disposed || !container || !this.visible) return;
    if (container.clientWidth === 0 || container.clientHeight === 0) return;
    this.opened = true;
    this.terminal.open(this.element);
    this.updateWebgl();
    if (this.focusWhenOpened) {
      this.focusWhenOpened = false;
      // The terminal opens a little after it was asked for focus. If the user has moved on
      // meanwhile — to another pane, a palette, a dialog or a text field — they keep it.
      if (latestFocusRequest === this.focusToken && !focusIsInAnotherField()) this.terminal.focus();
    }
  }
}

/** The pane that was last asked for (or given) keyboard focus. */
let latestFocusRequest: symbol | undefined;

function focusIsInAnotherField(): boolean {
  const active = document.activeElement;
  if (!(active instanceof HTMLElement) || active.classList.contains('xterm-helper-textarea')) return false;
  if (active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement || active instanceof HTMLSelectElement) return true;
  return active.closest('[role="dialog"], [role="menu"], [role="search"]') !== null;
}

import { Terminal, type IDisposable } from '@xterm/xterm';
import { FitAddon } from '@xterm/addon-fit';
import { SearchAddon, type ISearchOptions } from '@xterm/addon-search';
import { Unicode11Addon } from '@xterm/addon-unicode11';
import { WebLinksAddon } from '@xterm/addon-web-links';
import type { WebglAddon } from '@xterm/addon-webgl';
import type { Block } from '../../../shared/blocks';
import type { PaneInfo } from '../../../shared/protocol';
import { BlockMarkers } from '../blocks/blockMarkers';
import { BlockPositioner } from '../blocks/blockPositioner';
import { splitAtAnchors, type StreamAnchor } from '../blocks/outputSegments';
import { locateRestoredBlocks } from '../blocks/restoredBlockLocator';
import { writeClipboard } from '../platform/clipboard';
import { isMac } from '../platform/platform';
import type { ResolvedTheme } from '../settings/settingsStore';
import { searchDecorationColors, terminalTheme } from './terminalThemes';
import { loadWebglRenderer } from './webglRenderer';
import { FIT_DEBOUNCE_MS } from './flowPolicy';
import type { InputPriority } from './inputPriority';

/** What the pane needs from the engine connection. */
export interface PaneTransport {
  sendInput(paneId: number, data: string | Uint8Array): void;
  sendAck(paneId: number, byteCount: number): void;
  resize(paneId: number, cols: number, rows: number): void;
}

export interface PaneSessionHooks {
  onFocus(paneId: number): void;
  onRestartRequested(paneId: number): void;
  onUserInput(paneId: number): void;
}

export interface TerminalAppearance {
  fontFamily: string;
  fontSize: number;
  scrollback: number;
  cursorBlink: boolean;
  webgl: boolean;
  copyOnSelect: boolean;
  theme: ResolvedTheme;
}

/**
 * Without an end offset from the engine the end comes from the D mark as xterm parses it;
 * blocks with no marks at all (prompt heuristics) end where the cursor is a bit later.
 */
const END_FALLBACK_DELAY_MS = 150;
const COPY_ON_SELECT_DELAY_MS = 150;

/**
 * One pane's terminal, alive from the engine's answer until the pane closes. It outlives
 * React components: moving a pane in the layout re-parents `host`, nothing is re-created.
 * Engine output goes straight into xterm here and is acknowledged from xterm's write callback.
 */
export class PaneSession {
  paneId = 0;
  readonly terminal: Terminal;
  readonly blockMarkers: BlockMarkers;
  readonly blockPositioner: BlockPositioner;
  private readonly search = new SearchAddon({ highlightLimit: 2_000 });
  private readonly fit = new FitAddon();
  private readonly host: HTMLDivElement;
  private readonly resizeObserver: ResizeObserver;
  private readonly disposables: IDisposable[] = [];
  private readonly commands = new Map<string, string>();
  private appearance: TerminalAppearance;
  private webgl: WebglAddon | undefined;
  private webglLost = false;
  /** Stream offset of the next engine byte. */
  private nextOffset = 0;
  private anchors: StreamAnchor[] = [];
  /** Output that arrived while xterm was busy with the previous write. */
  private backlog: Uint8Array[] = [];
  private writing = false;
  /** Tandem's own lines waiting for the backlog to be written first. */
  private readonly localLines: string[] = [];
  /** The block whose start is placed and whose end is not yet. */
  private openBlockId: string | undefined;
  /** Blocks whose end the engine told us by offset; marks in the stream then do not count. */
  private readonly endsByOffset = new Set<string>();
  private nonce = '';
  private integration = false;
  /** Output before this offset arrived as a serialized snapshot, without byte positions. */
  private snapshotEndOffset = 0;
  private engineSize = { cols: 0, rows: 0 };
  private container: HTMLElement | undefined;
  private fitTimer = 0;
  private copyTimer = 0;
  private opened = false;
  private focusWhenOpened = false;
  /** Identifies this session in `latestFocusRequest`. */
  private readonly focusToken = Symbol('pane focus');
  private visible = false;
  private exited = false;
  private disposed = false;

  constructor(
    info: PaneInfo,
    private readonly transport: PaneTransport,
    private readonly hooks: PaneSessionHooks,
    appearance: TerminalAppearance,
    private readonly priority: InputPriority,
  ) {
    this.adopt(info);
    this.appearance = appearance;
    this.terminal = new Terminal({
      cols: Math.max(2, info.cols),
      rows: Math.max(1, info.rows),
      allowProposedApi: true,
      scrollback: appearance.scrollback,
      fontFamily: appearance.fontFamily,
      fontSize: appearance.fontSize,
      cursorBlink: appearance.cursorBlink,
      theme: terminalTheme(appearance.theme),
      macOptionIsMeta: false,
      rightClickSelectsWord: isMac,
      linkHandler: { activate: (event, uri) => openLink(event, uri) },
    });
    this.terminal.loadAddon(this.fit);
    this.terminal.loadAddon(this.search);
    this.terminal.loadAddon(new Unicode11Addon());
    this.terminal.unicode.activeVersion = '11';
    this.terminal.loadAddon(new WebLinksAddon((event, uri) => openLink(event, uri)));

    this.blockMarkers = new BlockMarkers(this.terminal, () => this.blockPositioner.invalidate());
    this.blockPositioner = new BlockPositioner(this.terminal, this.blockMarkers);

    this.host = document.createElement('div');
    this.host.className = 'pane-terminal-host';
    // Native paste (Ctrl+Shift+V, Cmd+V, middle click) lands here; route it through
    // term.paste() so bracketed paste mode is honoured and exited panes ignore it.
    this.host.addEventListener('paste', (event) => this.onPasteEvent(event), true);
    // A click in the pane gives the terminal the keyboard before the click is over: xterm
    // focuses its textarea only later, and keys typed right after a click were lost.
    this.host.addEventListener('click', () => {
      if (!this.isFocused) this.focus();
    });
    this.host.addEventListener('focusin', () => {
      latestFocusRequest = this.focusToken;
      this.hooks.onFocus(this.paneId);
    });

    this.resizeObserver = new ResizeObserver(() => {
      this.blockPositioner.invalidateGeometry();
      this.scheduleFit();
    });
    const invalidateBlocks = () => this.blockPositioner.invalidate();
    this.disposables.push(
      this.terminal.onData((data) => this.onInput(data)),
      this.terminal.onBinary((data) => {
        if (!this.exited) this.transport.sendInput(this.paneId, Uint8Array.from(data, (char) => char.charCodeAt(0) & 0xff));
      }),
      this.terminal.onSelectionChange(() => this.onSelectionChange()),
      // Once per parsed write (so blocks move in the same frame as the text), and after any
      // render (a scrolled viewport). Not per line feed or scrolled line: a flood has
      // hundreds of thousands, and listening to them slows xterm down measurably.
      this.terminal.onWriteParsed(invalidateBlocks),
      this.terminal.onResize(() => this.blockPositioner.invalidateGeometry()),
      this.terminal.onRender(invalidateBlocks),
      this.terminal.buffer.onBufferChange(invalidateBlocks),
      this.terminal.parser.registerOscHandler(133, (data) => this.onSemanticMark(data)),
      this.terminal.parser.registerOscHandler(633, (data) => this.onSemanticMark(data)),
    );
    if (info.snapshot) this.terminal.write(info.snapshot);
    if (info.exited) this.markExited(info.exited.exitCode);
  }

  // ---- engine output and blocks -------------------------------------------------------

  /**
   * Output goes to xterm at once when it is idle. While xterm is still parsing an earlier
   * write, what arrives waits and then goes in as one write: under a flood xterm gets fewer,
   * bigger writes (measurably faster), and a keystroke's echo is never held back.
   */
  receiveOutput(bytes: Uint8Array): void {
    if (this.disposed) return;
    this.backlog.push(bytes);
    if (!this.writing) this.writeBacklog();
  }

  private writeBacklog(): void {
    if (this.disposed) return;
    if (this.backlog.length === 0) {
      this.writing = false;
      for (const text of this.localLines.splice(0)) this.terminal.write(text);
      return;
    }
    this.writing = true;
    const allowance = this.priority.writeAllowance(this.paneId);
    if (allowance <= 0) {
      // Another pane is being typed in: its echo goes first.
      this.priority.whenWritable(() => this.writeBacklog());
      return;
    }
    let bytes = this.backlog.length === 1 ? this.backlog[0]! : concatBytes(this.backlog);
    this.backlog = [];
    if (bytes.byteLength > allowance) {
      // A slice now, the rest later (xterm parses escape sequences split across writes).
      this.backlog = [bytes.subarray(allowance)];
      bytes = bytes.subarray(0, allowance);
    }
    const chunkOffset = this.nextOffset;
    this.nextOffset += bytes.byteLength;
    if (this.anchors.length === 0 || (this.anchors[0]?.offset ?? Infinity) >= this.nextOffset) {
      this.writeAndAck(bytes, () => this.writeBacklog());
      return;
    }
    const { segments, pending } = splitAtAnchors(bytes, chunkOffset, this.anchors);
    this.anchors = pending;
    segments.forEach((segment, index) => {
      const last = index === segments.length - 1;
      this.writeAndAck(segment.bytes, () => {
        segment.anchorsAfter.forEach((anchor) => this.placeAnchor(anchor));
        if (last) this.writeBacklog();
      });
    });
  }

  /** Tandem's own line in the terminal (not engine output): after any output still waiting. */
  private writeLocalLine(text: string): void {
    if (this.writing) this.localLines.push(text);
    else this.terminal.write(text);
  }

  /** block.started / block.finished: the event precedes the bytes holding its offsets. */
  anchorBlock(block: Block): void {
    if (this.disposed) return;
    this.commands.set(block.id, block.command);
    // A block that began inside the snapshot is placed by placeListedBlocks, by its text.
    if (block.outputOffset < this.snapshotEndOffset && !this.blockMarkers.has(block.id)) return;
    if (!this.blockMarkers.has(block.id) && !this.isPending(block.id, 'start')) {
      this.addAnchor({ blockId: block.id, edge: 'start', offset: block.outputOffset });
    }
    if (block.endedAt === undefined || this.blockMarkers.hasEnd(block.id) || this.isPending(block.id, 'end')) return;
    if (block.outputEndOffset !== undefined) {
      this.endsByOffset.add(block.id);
      this.addAnchor({ blockId: block.id, edge: 'end', offset: block.outputEndOffset });
    } else {
      window.setTimeout(() => {
        this.afterQueuedWrites(() => {
          if (this.blockMarkers.hasEnd(block.id)) return;
          this.blockMarkers.markEndAtCursor(block.id, true);
          if (this.openBlockId === block.id) this.openBlockId = undefined;
        });
      }, END_FALLBACK_DELAY_MS);
    }
  }

  /**
   * Runs inside xterm's parser, so the cursor is exactly where the mark was printed. Marks
   * of our integration must carry this pane's nonce; others count only without integration
   * (the engine ignores them too, so `cat` of a file with marks cannot end a block).
   */
  private onSemanticMark(data: string): boolean {
    const letter = data[0];
    if ((letter !== 'D' && letter !== 'A') || this.openBlockId === undefined) return false;
    const trusted = data.includes(`tandem=${this.nonce}`);
    if (!trusted && this.integration) return false;
    const blockId = this.openBlockId;
    if (!this.endsByOffset.has(blockId) && this.blockMarkers.has(blockId)) {
      this.blockMarkers.markEndAtCursor(blockId, letter === 'A');
    }
    this.openBlockId = undefined;
    return false;
  }

  setIntegration(integration: boolean): void {
    this.integration = integration;
  }

  /**
   * Blocks listed by `pane.blocks` after a snapshot: those inside the snapshot are found by
   * their command text, later ones are anchored by offset like live blocks.
   */
  placeListedBlocks(blocks: readonly Block[], snapshotEndOffset: number): void {
    const inSnapshot = blocks.filter((block) => block.outputOffset < snapshotEndOffset);
    for (const block of blocks) {
      if (block.outputOffset >= snapshotEndOffset) this.anchorBlock(block);
      else this.commands.set(block.id, block.command);
    }
    if (inSnapshot.length === 0) return;
    this.afterQueuedWrites(() => {
      const unplaced = inSnapshot.filter((block) => !this.blockMarkers.has(block.id));
      const rows = locateRestoredBlocks(this.terminal.buffer.active, unplaced);
      const placed = unplaced
        .filter((block) => rows.has(block.id))
        .sort((a, b) => (rows.get(a.id) ?? 0) - (rows.get(b.id) ?? 0));
      const buffer = this.terminal.buffer.active;
      const cursorRow = buffer.baseY + buffer.cursorY;
      placed.forEach((block, index) => {
        const row = rows.get(block.id) ?? 0;
        this.blockMarkers.markStartAtRow(block.id, row, block.command);
        if (block.endedAt === undefined) {
          // Still running: its D mark is yet to come through the parser.
          this.openBlockId = block.id;
          return;
        }
        const next = placed[index + 1];
        const endRow = (next ? (rows.get(next.id) ?? cursorRow) : cursorRow) - 1;
        this.blockMarkers.markEndAtRow(block.id, Math.max(row, endRow));
      });
    });
  }

  private addAnchor(anchor: StreamAnchor): void {
    if (anchor.offset <= this.nextOffset) {
      // At the end of what was written so far, the cursor is exactly there once xterm has
      // parsed it. Earlier than that should not happen; the cursor is the nearest we have.
      this.afterQueuedWrites(() => this.placeAnchor(anchor));
      return;
    }
    const index = this.anchors.findIndex((existing) => existing.offset > anchor.offset);
    if (index < 0) this.anchors.push(anchor);
    else this.anchors.splice(index, 0, anchor);
  }

  private isPending(blockId: string, edge: StreamAnchor['edge']): boolean {
    return this.anchors.some((anchor) => anchor.blockId === blockId && anchor.edge === edge);
  }

  private placeAnchor(anchor: StreamAnchor): void {
    if (this.disposed) return;
    if (anchor.edge === 'start') {
      this.blockMarkers.markStartAtCursor(anchor.blockId, this.commands.get(anchor.blockId) ?? '');
      if (!this.blockMarkers.hasEnd(anchor.blockId)) this.openBlockId = anchor.blockId;
    } else {
      this.blockMarkers.markEndAtCursor(anchor.blockId);
      if (this.openBlockId === anchor.blockId) this.openBlockId = undefined;
    }
  }

  private writeAndAck(bytes: Uint8Array, afterwards?: () => void): void {
    const byteCount = bytes.byteLength;
    this.terminal.write(bytes, () => {
      if (!this.disposed) this.transport.sendAck(this.paneId, byteCount);
      this.priority.outputWritten(this.paneId);
      afterwards?.();
    });
  }

  /** xterm runs write callbacks in order, so an empty write's callback follows all queued data. */
  private afterQueuedWrites(callback: () => void): void {
    this.terminal.write('', () => {
      if (!this.disposed) callback();
    });
  }

  // ---- input ----------------------------------------------------------------------------

  private onInput(data: string): void {
    if (this.exited) {
      if (data.includes('\r')) this.hooks.onRestartRequested(this.paneId);
      return;
    }
    this.priority.noteKeystroke(this.paneId);
    this.transport.sendInput(this.paneId, data);
    this.hooks.onUserInput(this.paneId);
  }

  /** Types text into the pane as if the user did (block rerun). */
  typeText(text: string): void {
    if (!this.exited) this.transport.sendInput(this.paneId, text);
  }

  paste(text: string): void {
    if (!this.exited && text) this.terminal.paste(text);
  }

  private onPasteEvent(event: ClipboardEvent): void {
    event.preventDefault();
    event.stopPropagation();
    this.paste(event.clipboardData?.getData('text/plain') ?? '');
  }

  copySelection(): boolean {
    if (!this.terminal.hasSelection()) return false;
    void writeClipboard(this.terminal.getSelection());
    return true;
  }

  private onSelectionChange(): void {
    if (!this.appearance.copyOnSelect) return;
    window.clearTimeout(this.copyTimer);
    this.copyTimer = window.setTimeout(() => this.copySelection(), COPY_ON_SELECT_DELAY_MS);
  }

  // ---- lifecycle --------------------------------------------------------------------------

  get hasExited(): boolean {
    return this.exited;
  }

  markExited(exitCode: number): void {
    if (this.exited) return;
    this.exited = true;
    const close = isMac ? 'Cmd+W' : 'Ctrl+Shift+W';
    this.writeLocalLine(
      `\r\n\x1b[0;2m[process exited with code ${exitCode}] — press Enter to restart or ${close} to close\x1b[0m\r\n`,
    );
  }

  /** Take on the engine pane `info` describes: its id, stream position, size and marks' nonce. */
  private adopt(info: PaneInfo): void {
    this.paneId = info.paneId;
    this.nextOffset = info.streamOffset;
    this.backlog = [];
    this.engineSize = { cols: info.cols, rows: info.rows };
    this.nonce = info.nonce;
    this.integration = info.integration;
    this.snapshotEndOffset = info.snapshot ? info.streamOffset : 0;
  }

  /** A restarted shell continues in the same terminal, keeping the old scrollback above it. */
  rebind(info: PaneInfo): void {
    this.adopt(info);
    this.openBlockId = undefined;
    this.endsByOffset.clear();
    this.anchors = [];
    this.commands.clear();
    this.blockMarkers.forgetAll();
    this.exited = false;
    if (info.snapshot) this.terminal.write(info.snapshot);
    this.scheduleFit();
  }

  attach(container: HTMLElement): void {
    if (this.disposed || this.container === container) return;
    if (this.container) this.resizeObserver.unobserve(this.container);
    this.container = container;
    container.appendChild(this.host);
    this.resizeObserver.observe(container);
    this.openIfPlaced();
    this.scheduleFit();
  }

  detach(container: HTMLElement): void {
    if (this.container !== container) return;
    this.resizeObserver.unobserve(container);
    this.container = undefined;
    if (this.host.parentElement === container) this.host.remove();
  }

  setVisible(visible: boolean): void {
    if (this.visible === visible) return;
    this.visible = visible;
    if (visible) {
      this.openIfPlaced();
      this.scheduleFit();
      this.updateWebgl();
    } else {
      // Browsers cap live WebGL contexts; hidden tabs give theirs back.
      this.disposeWebgl();
    }
  }

  get dimensions(): { cols: number; rows: number } {
    return { cols: this.terminal.cols, rows: this.terminal.rows };
  }

  applyAppearance(appearance: TerminalAppearance): void {
    const previous = this.appearance;
    this.appearance = appearance;
    const options = this.terminal.options;
    if (previous.fontFamily !== appearance.fontFamily) options.fontFamily = appearance.fontFamily;
    if (previous.fontSize !== appearance.fontSize) options.fontSize = appearance.fontSize;
    if (previous.scrollback !== appearance.scrollback) options.scrollback = appearance.scrollback;
    if (previous.cursorBlink !== appearance.cursorBlink) options.cursorBlink = appearance.cursorBlink;
    if (previous.theme !== appearance.theme) options.theme = terminalTheme(appearance.theme);
    if (previous.webgl !== appearance.webgl) this.updateWebgl();
    this.scheduleFit();
    this.blockPositioner.invalidateGeometry();
  }

  focus(): void {
    latestFocusRequest = this.focusToken;
    if (this.opened) this.terminal.focus();
    else this.focusWhenOpened = true;
  }

  get isFocused(): boolean {
    return this.terminal.textarea !== undefined && document.activeElement === this.terminal.textarea;
  }

  // ---- find -------------------------------------------------------------------------------

  /** `newest` starts over from the bottom (the query changed); next/previous move from the current match. */
  find(query: string, direction: 'next' | 'previous' | 'newest', options: { caseSensitive: boolean; regex: boolean }): boolean {
    if (!query) {
      this.search.clearDecorations();
      return false;
    }
    const searchOptions: ISearchOptions = {
      caseSensitive: options.caseSensitive,
      regex: options.regex,
      decorations: searchDecorationColors(this.appearance.theme),
    };
    if (direction === 'newest') this.terminal.clearSelection();
    return direction === 'next' ? this.search.findNext(query, searchOptions) : this.search.findPrevious(query, searchOptions);
  }

  onSearchResults(listener: (result: { resultIndex: number; resultCount: number }) => void): IDisposable {
    return this.search.onDidChangeResults(listener);
  }

  clearFind(): void {
    this.search.clearDecorations();
    this.terminal.clearSelection();
  }

  // ---- sizing and rendering -----------------------------------------------------------------

  private scheduleFit(): void {
    window.clearTimeout(this.fitTimer);
    this.fitTimer = window.setTimeout(() => this.fitNow(), FIT_DEBOUNCE_MS);
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
    if (cols !== this.terminal.cols || rows !== this.terminal.rows) this.terminal.resize(cols, rows);
    if (cols !== this.engineSize.cols || rows !== this.engineSize.rows) {
      this.engineSize = { cols, rows };
      if (!this.exited) this.transport.resize(this.paneId, cols, rows);
    }
    this.blockPositioner.invalidateGeometry();
  }

  /**
   * The terminal opens as soon as it has a visible place, not at the (debounced) first fit:
   * a click and keys aimed at the pane must never land on an empty host and be lost.
   */
  private openIfPlaced(): void {
    const container = this.container;
    if (this.opened || this.disposed || !container || !this.visible) return;
    if (container.clientWidth === 0 || container.clientHeight === 0) return;
    this.open();
  }

  private open(): void {
    this.opened = true;
    this.terminal.open(this.host);
    this.updateWebgl();
    if (this.focusWhenOpened) {
      this.focusWhenOpened = false;
      // The terminal opens a little after it was asked for focus. If the user has moved on
      // meanwhile — to another pane, a palette, a dialog or a text field — they keep it.
      if (latestFocusRequest === this.focusToken && !focusIsInAnotherField()) this.terminal.focus();
    }
  }

  private updateWebgl(): void {
    const wanted = this.opened && this.visible && this.appearance.webgl && !this.webglLost;
    if (wanted && !this.webgl) {
      this.webgl = loadWebglRenderer(this.terminal, () => {
        this.webgl = undefined;
        this.webglLost = true;
      });
    } else if (!wanted) {
      this.disposeWebgl();
    }
  }

  private disposeWebgl(): void {
    const addon = this.webgl;
    this.webgl = undefined;
    try {
      addon?.dispose();
    } catch {
      // A lost context can make dispose throw; the DOM renderer takes over either way.
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    window.clearTimeout(this.fitTimer);
    window.clearTimeout(this.copyTimer);
    this.resizeObserver.disconnect();
    this.disposables.forEach((disposable) => disposable.dispose());
    this.blockPositioner.dispose();
    this.blockMarkers.forgetAll();
    this.disposeWebgl();
    this.terminal.dispose();
    this.host.remove();
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

/** Links open on Ctrl+click (Cmd+click on macOS), as in VS Code and iTerm2. */
function openLink(event: MouseEvent, uri: string): void {
  if (!(isMac ? event.metaKey : event.ctrlKey)) return;
  if (!/^(https?|mailto):/i.test(uri)) return;
  window.open(uri, '_blank', 'noopener,noreferrer');
}

function concatBytes(chunks: Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.byteLength, 0));
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return joined;
}

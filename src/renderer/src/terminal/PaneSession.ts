import type { Terminal } from '@xterm/xterm';
import type { Block } from '../../../shared/blocks';
import type { PaneInfo } from '../../../shared/protocol';
import { PaneBlocks } from '../blocks/paneBlocks';
import type { PaneEvent } from './applyPaneEvent';
import type { InputPriority } from './inputPriority';
import { deadPaneLine } from './deadPaneKeys';
import { createPaneTerminal, PaneAppearance, type TerminalAppearance } from './paneAppearance';
import { PaneFind } from './paneFind';
import { PaneInput } from './paneInput';
import { PaneOutputQueue } from './paneOutputQueue';
import type { PaneStreamSink } from './paneStreamRouter';
import { TerminalHost } from './terminalHost';
import { TerminalLinks } from './terminalLinks';

export type { TerminalAppearance } from './paneAppearance';

/** What the pane needs from the engine connection. */
export interface PaneTransport {
  sendInput(paneId: number, data: string | Uint8Array): void;
  sendAck(paneId: number, byteCount: number): void;
  /** False if the engine did not take the size (the pane closed, the connection dropped). */
  resize(paneId: number, cols: number, rows: number): Promise<boolean>;
}

/** What the pane tells the rest of the app. Block and pane events come once their place in the output is on screen. */
export interface PaneSessionHooks {
  onFocus(paneId: number): void;
  onRestartRequested(paneId: number): void;
  onCloseRequested(paneId: number): void;
  onUserInput(paneId: number): void;
  /** A block event, after its edge was placed. */
  onBlock(block: Block): void;
  /** The pane's blocks so far (attach, re-attach), after the snapshot holding them was placed. */
  onBlocksListed(paneId: number, blocks: Block[]): void;
  onPaneEvent(event: PaneEvent): void;
}

/**
 * One pane's terminal, alive from the engine's answer until the pane closes. It outlives
 * React components: moving a pane in the layout re-parents its host, nothing is re-created.
 * The pane's stream goes through one ordered queue into xterm (PaneOutputQueue); block
 * edges are placed as the queue reaches them (PaneBlocks); TerminalHost places, sizes
 * and focuses it; PaneInput and PaneFind do keys and clipboard, and find; TerminalLinks
 * shows where links go and opens them; PaneAppearance keeps xterm's options as the
 * settings say.
 */
export class PaneSession implements PaneStreamSink {
  paneId = 0;
  readonly terminal: Terminal;
  readonly blocks: PaneBlocks;
  /** Find in the scrollback (the find bar). */
  readonly find: PaneFind;
  private readonly queue: PaneOutputQueue;
  private readonly host: TerminalHost;
  private readonly input: PaneInput;
  private readonly links: TerminalLinks;
  private readonly appearance: PaneAppearance;
  private exited = false;
  private disposed = false;
  /** Output of floods the engine did not send, since the lines after it filled the buffer (pane.skipped). */
  skippedBytes = 0;

  constructor(
    info: PaneInfo,
    transport: PaneTransport,
    private readonly hooks: PaneSessionHooks,
    appearance: TerminalAppearance,
    priority: InputPriority,
  ) {
    this.paneId = info.paneId;
    this.terminal = createPaneTerminal(info, appearance);
    this.appearance = new PaneAppearance(this.terminal, appearance);
    this.links = new TerminalLinks(this.terminal, { focus: () => this.focus() });
    this.blocks = new PaneBlocks(this.terminal);
    this.queue = new PaneOutputQueue(this.terminal, () => this.paneId, (paneId, count) => transport.sendAck(paneId, count), priority);
    this.find = new PaneFind(this.terminal, () => this.appearance.current.theme);

    this.host = new TerminalHost(
      this.terminal,
      {
        paneId: () => this.paneId,
        hasExited: () => this.exited,
        webglWanted: () => this.appearance.current.webgl,
        resize: (paneId, cols, rows) => transport.resize(paneId, cols, rows),
        onFocus: (paneId) => hooks.onFocus(paneId),
        onGeometryChange: () => this.blocks.invalidateGeometry(),
      },
      { cols: info.cols, rows: info.rows },
    );
    this.input = new PaneInput(
      this.terminal,
      {
        paneId: () => this.paneId,
        hasExited: () => this.exited,
        copyOnSelect: () => this.appearance.current.copyOnSelect,
        sendInput: (paneId, data) => transport.sendInput(paneId, data),
        onRestartRequested: (paneId) => hooks.onRestartRequested(paneId),
        onCloseRequested: (paneId) => hooks.onCloseRequested(paneId),
        onUserInput: (paneId) => hooks.onUserInput(paneId),
      },
      priority,
    );
    this.input.listen(this.host.element);
    this.enterStream(info);
    if (info.exited) this.markExited(info.exited.exitCode);
  }

  // ---- the pane's stream, in order ----------------------------------------------------------

  receiveOutput(bytes: Uint8Array): void {
    this.queue.output(bytes);
  }

  /** block.started / block.finished: the event sits in the stream right at the edge it describes. */
  receiveBlock(block: Block): void {
    this.queue.event(() => {
      this.blocks.placeAtCursor(block);
      this.hooks.onBlock(block);
    });
  }

  receivePaneEvent(event: PaneEvent): void {
    if (event.name === 'pane.skipped') {
      // Lines that would have scrolled out unseen were not sent (the engine sets the attributes they left).
      this.skippedBytes += event.payload.bytes;
      return;
    }
    if (event.name === 'pane.resized') {
      const { cols, rows } = event.payload;
      this.queue.event(() => this.host.engineResized(cols, rows));
      return;
    }
    this.queue.event(() => {
      if (event.name === 'pane.exit') this.markExited(event.payload.exitCode);
      this.hooks.onPaneEvent(event);
    });
  }

  /**
   * The engine's snapshot (re-attach, restore), then its blocks placed (on the normal
   * screen, where they lie), then the store told of them; then the rest of the terminal's
   * state, which may put a full-screen program's alternate screen over them.
   */
  private enterStream(info: PaneInfo): void {
    if (info.snapshot) this.queue.text(info.snapshot);
    this.queue.event(() => {
      this.blocks.placeSnapshot(info.snapshotBlocks ?? [], info.blocks ?? [], info.streamOffset);
      this.hooks.onBlocksListed(info.paneId, info.blocks ?? []);
    });
    if (info.snapshotState) this.queue.text(info.snapshotState);
  }

  // ---- lifecycle ----------------------------------------------------------------------------

  get hasExited(): boolean {
    return this.exited;
  }

  private markExited(exitCode: number): void {
    if (this.exited) return;
    this.exited = true;
    this.queue.text(`\r\n\x1b[0;2m${deadPaneLine(exitCode)}\x1b[0m\r\n`);
  }

  /** A restarted shell continues in the same terminal, keeping the old scrollback above it. */
  rebind(info: PaneInfo): void {
    this.queue.dropStream();
    this.paneId = info.paneId;
    this.exited = false;
    this.blocks.reset();
    this.host.setEngineSize({ cols: info.cols, rows: info.rows });
    this.enterStream(info);
    this.host.scheduleFit();
  }

  attach(container: HTMLElement): void {
    if (!this.disposed) this.host.attach(container);
  }

  detach(container: HTMLElement): void {
    this.links.leave();
    this.host.detach(container);
  }

  setVisible(visible: boolean): void {
    // A hidden terminal gets no mouseleave: its link tip goes with it.
    if (!visible) this.links.leave();
    this.host.setVisible(visible);
  }

  get dimensions(): { cols: number; rows: number } {
    return { cols: this.terminal.cols, rows: this.terminal.rows };
  }

  applyAppearance(appearance: TerminalAppearance): void {
    if (this.appearance.apply(appearance).webglChanged) this.host.updateWebgl();
    this.host.scheduleFit();
    this.blocks.invalidateGeometry();
  }

  focus(): void {
    this.host.focus();
  }

  get isFocused(): boolean {
    return this.host.isFocused;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.queue.dispose();
    this.input.dispose();
    this.links.dispose();
    this.host.dispose();
    this.blocks.dispose();
    this.terminal.dispose();
  }

  // ---- input ----------------------------------------------------------------------------------

  /** Types text into the pane as if the user did (block rerun). */
  typeText(text: string): void {
    this.input.typeText(text);
  }

  paste(text: string): void {
    this.input.paste(text);
  }

  copySelection(): boolean {
    return this.input.copySelection();
  }
}

import headless from '@xterm/headless';
import serialize from '@xterm/addon-serialize';
import unicode11 from '@xterm/addon-unicode11';
import type { Terminal } from '@xterm/headless';
import type { PaneListener } from '../../src/main/panes/paneDelivery';

/** A headless xterm set up like the renderer's pane (Unicode 11 widths), with the serialize addon. */
export function paneLikeTerminal(cols: number, rows: number, scrollback: number): { terminal: Terminal; serialize: () => string } {
  const terminal = new headless.Terminal({ cols, rows, scrollback, allowProposedApi: true, logLevel: 'off' });
  const serializer = new serialize.SerializeAddon();
  terminal.loadAddon(serializer as never);
  terminal.loadAddon(new unicode11.Unicode11Addon() as never);
  terminal.unicode.activeVersion = '11';
  return { terminal, serialize: () => serializer.serialize({ scrollback: Number.MAX_SAFE_INTEGER }) };
}

export function written(terminal: Terminal, data: Uint8Array | string): Promise<void> {
  return new Promise((resolve) => terminal.write(data, resolve));
}

/**
 * Everything that must be equal between two terminals: the serialized buffer (every line of
 * scrollback and screen with its attributes), each line's text and wrapped flag, every cell's
 * characters, width and colours, the cursor, which buffer is up, and the modes.
 */
export function bufferState(terminal: Terminal, serialized: string) {
  const buffer = terminal.buffer.active;
  const lines: string[] = [];
  for (let row = 0; row < buffer.length; row++) {
    const line = buffer.getLine(row)!;
    const cells: string[] = [];
    for (let col = 0; col < terminal.cols; col++) {
      const cell = line.getCell(col)!;
      cells.push(`${cell.getChars()}|${cell.getWidth()}|${cell.getFgColor()}.${cell.getFgColorMode()}|${cell.getBgColor()}.${cell.getBgColorMode()}|${cell.isBold()}${cell.isInverse()}`);
    }
    lines.push(`${line.isWrapped ? 'W' : '-'} ${cells.join(' ')}`);
  }
  return { serialized, size: [terminal.cols, terminal.rows], type: buffer.type, cursor: [buffer.cursorX, buffer.cursorY, buffer.baseY], modes: terminal.modes, lines };
}

type Item = { bytes: Uint8Array } | { event: string; payload: unknown };

/**
 * The renderer as the engine's PaneDelivery sees it: frames and events arrive and wait until
 * `pump` parses them into an xterm (so the renderer can fall behind), each frame acknowledged
 * once parsed; pane.skipped and pane.resized handled as PaneSession does; resizes as
 * TerminalHost makes them (where the stream reaches the engine's pane.resized). It records where in
 * the whole stream each size took effect, so a reference terminal can be given the same.
 */
export class RendererModel {
  readonly terminal: Terminal;
  private readonly serializeBuffer: () => string;
  private readonly inbox: Item[] = [];
  /** How far into the whole stream (skipped parts included) the terminal has got. */
  streamOffset = 0;
  /** SGR bytes the engine put in front of the output after a skip: not part of the stream. */
  private prefixBytesLeft = 0;
  skipped = 0;
  readonly resizes: { offset: number; cols: number; rows: number }[] = [];

  readonly listener: PaneListener = {
    output: (_paneId, bytes) => this.inbox.push({ bytes: bytes.slice() }),
    event: (event, payload) => this.inbox.push({ event, payload }),
  };

  constructor(
    size: { cols: number; rows: number; scrollback: number },
    private readonly acknowledge: (bytes: number) => void,
    private readonly askEngine: (cols: number, rows: number) => void,
  ) {
    ({ terminal: this.terminal, serialize: this.serializeBuffer } = paneLikeTerminal(size.cols, size.rows, size.scrollback));
  }

  get waiting(): number {
    return this.inbox.length;
  }

  /** Parses up to `count` of what arrived, in order. */
  async pump(count = Infinity): Promise<void> {
    for (let done = 0; done < count && this.inbox.length > 0; done++) {
      const item = this.inbox.shift()!;
      if ('bytes' in item) {
        await written(this.terminal, item.bytes);
        const prefix = Math.min(this.prefixBytesLeft, item.bytes.length);
        this.prefixBytesLeft -= prefix;
        this.streamOffset += item.bytes.length - prefix;
        this.acknowledge(item.bytes.length);
      } else if (item.event === 'pane.skipped') {
        const skip = item.payload as { bytes: number; prefixBytes: number };
        this.streamOffset += skip.bytes;
        this.skipped += skip.bytes;
        this.prefixBytesLeft = skip.prefixBytes;
      } else if (item.event === 'pane.resized') {
        const { cols, rows } = item.payload as { cols: number; rows: number };
        this.resizeTerminal(cols, rows);
      }
    }
  }

  /** The pane's box changed: the engine is asked for the size; the terminal takes it where the stream says the engine did. */
  resize(cols: number, rows: number): void {
    this.askEngine(cols, rows);
  }

  state() {
    return bufferState(this.terminal, this.serializeBuffer());
  }

  dispose(): void {
    this.terminal.dispose();
  }

  private resizeTerminal(cols: number, rows: number): void {
    if (cols === this.terminal.cols && rows === this.terminal.rows) return;
    this.terminal.resize(cols, rows);
    this.resizes.push({ offset: this.streamOffset, cols, rows });
  }
}

/** A terminal that parsed every byte of `stream`, resized at the same stream offsets as `renderer`. */
export async function referenceTerminal(size: { cols: number; rows: number; scrollback: number }, stream: Uint8Array, resizes: readonly { offset: number; cols: number; rows: number }[]) {
  const { terminal, serialize } = paneLikeTerminal(size.cols, size.rows, size.scrollback);
  let at = 0;
  for (const resize of resizes) {
    await written(terminal, stream.subarray(at, resize.offset));
    at = Math.max(at, resize.offset);
    terminal.resize(resize.cols, resize.rows);
  }
  await written(terminal, stream.subarray(at));
  const state = bufferState(terminal, serialize());
  terminal.dispose();
  return state;
}

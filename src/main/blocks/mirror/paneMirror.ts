import { Emitter } from '../../../shared/events';
import type { SnapshotBlock } from '../../../shared/protocol';
import type { BlockOutput } from './blockOutputs';
import type { MirrorCommand } from './mirrorProtocol';
import { mirrorThread, type MirrorOff, type MirrorThread } from './mirrorThread';

type Distribute<T> = T extends unknown ? Omit<T, 'mirror'> : never;

/**
 * A pane's headless mirror, parsed in the mirror thread. Writes and block marks are
 * fire-and-forget, in order; reads are answered once everything written before is parsed.
 * The modes come back after each parse, so their getters may lag the stream a little.
 */
export class PaneMirror {
  private readonly id: number;
  private size: { cols: number; rows: number };
  private nextMark = 1;
  private modes = { alternateScreen: false, bracketedPaste: false };
  private closed = false;
  private offState: MirrorOff | undefined;
  /** Pty output written here and parsed so far, in stream offsets, and the screen right after the parsed part. */
  private outputWritten = 0;
  private outputParsed = 0;
  private plainAfterParsed = false;
  private readonly parsed = new Emitter<number>();
  private readonly lost = new Emitter<string>();
  private readonly wentOff = new Emitter<MirrorOff>();
  /** This many more bytes of the output written here are parsed (flow control). */
  readonly onParsed = this.parsed.event;
  /** The mirror thread died (the reason); the mirror starts again empty. */
  readonly onLost = this.lost.event;
  /**
   * The mirror thread is off for good (once per mirror, also for one opened after): nothing
   * written is parsed or acknowledged any more, and reads answer that the text is not there.
   */
  readonly onOff = this.wentOff.event;

  constructor(
    cols: number,
    rows: number,
    private readonly scrollback: number,
    private readonly thread: MirrorThread = mirrorThread(),
  ) {
    this.size = { cols, rows };
    this.id = thread.register({
      parsed: (bytes, plainScreen) => {
        this.outputParsed += bytes;
        this.plainAfterParsed = plainScreen;
        this.parsed.fire(bytes);
      },
      modes: (modes) => (this.modes = modes),
      lost: (reason) => {
        if (this.closed) return;
        this.modes = { alternateScreen: false, bracketedPaste: false };
        // What was waiting is gone with the thread; the new mirror knows nothing of the screen.
        this.outputParsed = this.outputWritten;
        this.plainAfterParsed = false;
        this.open();
        this.lost.fire(reason);
      },
      off: (off) => {
        if (this.closed || this.offState) return;
        this.offState = off;
        this.modes = { alternateScreen: false, bracketedPaste: false };
        this.plainAfterParsed = false;
        this.wentOff.fire(off);
      },
    });
    this.open();
  }

  /** False once the mirror thread is off: writes are neither parsed nor acknowledged. */
  get available(): boolean {
    return this.offState === undefined;
  }

  get isAlternateScreen(): boolean {
    return this.modes.alternateScreen;
  }

  /** The program asked for bracketed paste (shells with a line editor do at the prompt). */
  get bracketedPasteMode(): boolean {
    return this.modes.bracketedPaste;
  }

  /** Pty output (bytes, counted in the stream), or Tandem's own text (a restored screen, not counted). */
  write(data: Uint8Array | string): void {
    if (typeof data !== 'string') this.outputWritten += data.byteLength;
    this.post({ op: 'write', data });
  }

  /**
   * How far the mirror has parsed the pty output (a stream offset), and whether plain text
   * printed right there goes down a plain screen (normal screen, autowrap on, no insert or
   * origin mode, no scroll region). Plain text changes none of that, so the answer holds for
   * a whole run of plain text around that offset.
   */
  get parsedScreen(): { offset: number; plain: boolean } {
    return { offset: this.outputParsed, plain: this.plainAfterParsed };
  }

  resize(cols: number, rows: number): void {
    this.size = { cols, rows };
    this.post({ op: 'resize', cols, rows });
  }

  /** Block `blockId`'s output starts on the cursor's line, once what was written so far is parsed. */
  startBlock(blockId: string): void {
    this.post({ op: 'blockStart', blockId });
  }

  /** Block `blockId`'s output starts at a mark from promptLine(). */
  startBlockAtMark(blockId: string, mark: number): void {
    this.post({ op: 'blockStartAtMark', blockId, mark });
  }

  endBlock(blockId: string): void {
    this.post({ op: 'blockEnd', blockId });
  }

  /** With the thread off, a block's output is a bracketed line saying why it cannot be read. */
  async readBlock(blockId: string): Promise<BlockOutput | undefined> {
    const output = await this.thread.ask(this.id, { op: 'readBlock', blockId }, undefined);
    if (!this.offState) return output;
    return { text: `[Tandem has no copy of this output: ${this.offState.reason}. The command ran; its exit code is known, what it printed is not.]`, truncated: false, lineCount: 1 };
  }

  /** Screen and scrollback as escape sequences, exactly as of the bytes written before this call. */
  serialize(scrollback?: number): Promise<string> {
    return this.thread.ask(this.id, { op: 'serialize', scrollback }, '');
  }

  /**
   * For a re-attaching client, exactly as of the bytes written before this call: the normal
   * screen and scrollback (`text`), where the blocks in it lie, and what goes after them
   * (`state`: the alternate screen a program has up, cursor, modes, charsets).
   */
  snapshot(): Promise<{ text: string; state: string; blocks: SnapshotBlock[] }> {
    return this.thread.ask(this.id, { op: 'snapshot' }, { text: '', state: '', blocks: [] }).then((snapshot) => {
      if (!this.offState) return snapshot;
      // Shown where the old screen would be (a reloaded window), dim like the pane's own notes.
      return { text: `\x1b[2m[tandem] The screen from before cannot be shown: ${this.offState.reason}.\x1b[0m\r\n`, state: '', blocks: [] };
    });
  }

  screenText(): Promise<string> {
    return this.thread.ask(this.id, { op: 'screenText' }, '');
  }

  cursorLine(): Promise<{ text: string; alternateScreen: boolean }> {
    return this.thread.ask(this.id, { op: 'cursorLine' }, { text: '', alternateScreen: false });
  }

  /** Marks the cursor's line as parsed so far (where Enter was pressed); returns the mark. */
  markCursorLine(): number {
    const mark = this.nextMark++;
    this.post({ op: 'markCursorLine', mark });
    return mark;
  }

  /**
   * The logical line at `mark` once pending output is parsed (the mark is dropped), and a
   * mark on the row after it, for startBlockAtMark (drop it with disposeMark if unused).
   */
  async promptLine(mark: number): Promise<{ text: string; startMark: number } | undefined> {
    const startMark = this.nextMark++;
    const line = await this.thread.ask(this.id, { op: 'promptLine', mark, startMark }, undefined);
    return line ? { text: line.text, startMark } : undefined;
  }

  disposeMark(mark: number): void {
    this.post({ op: 'disposeMark', mark });
  }

  /** Resolves once everything written so far is parsed. */
  async flushed(): Promise<void> {
    await this.cursorLine();
  }

  dispose(): void {
    if (this.closed) return;
    this.closed = true;
    this.post({ op: 'close' });
    this.thread.unregister(this.id);
    this.parsed.dispose();
    this.lost.dispose();
    this.wentOff.dispose();
  }

  private open(): void {
    this.post({ op: 'open', cols: this.size.cols, rows: this.size.rows, scrollback: this.scrollback });
  }

  private post(command: Distribute<MirrorCommand>): void {
    this.thread.send({ ...command, mirror: this.id } as MirrorCommand);
  }
}

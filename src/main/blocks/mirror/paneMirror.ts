import type { BlockOutput } from './blockOutputs';
import type { MirrorCommand } from './mirrorProtocol';
import { mirrorThread, type MirrorThread } from './mirrorThread';

export interface PaneMirrorEvents {
  /** `bytes` more of the output written here are parsed (flow control). */
  parsed(bytes: number): void;
  /** The mirror thread died; the mirror starts again empty. */
  lost(reason: string): void;
}

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

  constructor(
    cols: number,
    rows: number,
    private readonly scrollback: number,
    events: PaneMirrorEvents,
    private readonly thread: MirrorThread = mirrorThread(),
  ) {
    this.size = { cols, rows };
    this.id = thread.register({
      parsed: (bytes) => events.parsed(bytes),
      modes: (modes) => (this.modes = modes),
      lost: (reason) => {
        if (this.closed) return;
        this.modes = { alternateScreen: false, bracketedPaste: false };
        this.open();
        events.lost(reason);
      },
    });
    this.open();
  }

  get isAlternateScreen(): boolean {
    return this.modes.alternateScreen;
  }

  /** The program asked for bracketed paste (shells with a line editor do at the prompt). */
  get bracketedPasteMode(): boolean {
    return this.modes.bracketedPaste;
  }

  write(data: Uint8Array | string): void {
    this.post({ op: 'write', data });
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

  readBlock(blockId: string): Promise<BlockOutput | undefined> {
    return this.thread.ask(this.id, { op: 'readBlock', blockId }, undefined);
  }

  /** Screen and scrollback as escape sequences, exactly as of the bytes written before this call. */
  serialize(scrollback?: number): Promise<string> {
    return this.thread.ask(this.id, { op: 'serialize', scrollback }, '');
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
  }

  private open(): void {
    this.post({ op: 'open', cols: this.size.cols, rows: this.size.rows, scrollback: this.scrollback });
  }

  private post(command: Distribute<MirrorCommand>): void {
    this.thread.send({ ...command, mirror: this.id } as MirrorCommand);
  }
}

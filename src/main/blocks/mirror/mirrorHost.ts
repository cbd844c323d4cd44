import { MIRROR_RELEASE_AFTER_QUIET_MS } from '../../pty/flowPolicy';
import { PrintedTally } from '../printedTally';
import { BlockOutputs } from './blockOutputs';
import { DeferredPlainOutput } from './deferredPlainOutput';
import type { MirrorCommand, MirrorEvent } from './mirrorProtocol';
import { TerminalMirror } from './terminalMirror';

type Mark = ReturnType<TerminalMirror['markCursorLine']>;


/** One pane's mirror inside the mirror thread: the headless terminal, block markers, marks. */
class PaneMirrorState {
  readonly terminal: TerminalMirror;
  readonly outputs: BlockOutputs;
  readonly marks = new Map<number, Mark>();
  readonly deferred = new DeferredPlainOutput();
  /** Lines and bytes each block printed, counted here, off the engine's main thread. */
  readonly printed = new PrintedTally();
  /** The block whose output the bytes written now are (between its start and its end). */
  runningBlock: string | undefined;
  /** Output that came while the terminal was busy, to be looked at once it is idle (DeferredPlainOutput.waitsForIdle). */
  waiting: Uint8Array[] = [];
  releaseTimer: NodeJS.Timeout | undefined;
  modes = { alternateScreen: false, bracketedPaste: false };

  constructor(cols: number, rows: number, scrollback: number) {
    this.terminal = new TerminalMirror(cols, rows, scrollback);
    this.outputs = new BlockOutputs(this.terminal);
  }

  takeMark(mark: number): Mark {
    const found = this.marks.get(mark);
    this.marks.delete(mark);
    return found;
  }

  /** Parse whatever output is being held (before anything looks at the terminal). */
  releaseHeld(): void {
    clearTimeout(this.releaseTimer);
    this.releaseTimer = undefined;
    if (!this.deferred.holding) return;
    for (const bytes of this.deferred.release()) this.terminal.write(bytes);
  }
}

/**
 * Runs mirror commands against headless terminals. Lives in the mirror thread (see
 * mirrorWorker.ts); `send` posts events back to the engine.
 */
export class MirrorHost {
  private readonly mirrors = new Map<number, PaneMirrorState>();

  constructor(private readonly send: (event: MirrorEvent) => void) {}

  handle(command: MirrorCommand): void {
    if (command.op === 'open') {
      this.mirrors.get(command.mirror)?.terminal.dispose();
      this.mirrors.set(command.mirror, new PaneMirrorState(command.cols, command.rows, command.scrollback));
      return;
    }
    const state = this.mirrors.get(command.mirror);
    if (!state) {
      // A query for a mirror that is gone still gets its answer, so nobody waits forever.
      if ('request' in command) this.send({ kind: 'answer', request: command.request, value: undefined });
      return;
    }
    const { terminal } = state;
    if (command.op === 'write' && typeof command.data !== 'string') {
      if (state.runningBlock) state.printed.add(state.runningBlock, command.data);
      this.writeOutput(command.mirror, state, command.data);
      return;
    }
    if (command.op === 'blockStart' || command.op === 'blockStartAtMark') state.runningBlock = command.blockId;
    if (command.op === 'blockEnd' && state.runningBlock === command.blockId) state.runningBlock = undefined;
    this.writeWaiting(command.mirror, state, false);
    state.releaseHeld();
    if (command.op === 'write' || command.op === 'resize') state.deferred.screenChanged();
    switch (command.op) {
      case 'write':
        // Text (a restored screen), not pty output: not part of flow control.
        terminal.write(command.data);
        terminal.afterPendingWrites(() => this.reportModes(command.mirror, state));
        return;
      case 'resize':
        terminal.resize(command.cols, command.rows);
        return;
      case 'close':
        this.mirrors.delete(command.mirror);
        clearTimeout(state.releaseTimer);
        terminal.dispose();
        return;
      case 'blockStart':
        state.outputs.startAtCursor(command.blockId);
        return;
      case 'blockStartAtMark':
        terminal.afterPendingWrites(() => state.outputs.startAtMark(command.blockId, state.takeMark(command.mark)));
        return;
      case 'blockEnd':
        state.outputs.endAtCursor(command.blockId);
        return;
      case 'markCursorLine':
        state.marks.set(command.mark, terminal.markCursorLine());
        return;
      case 'disposeMark':
        state.takeMark(command.mark)?.marker.dispose();
        return;
      default:
        this.answer(state, command);
    }
  }

  private answer(state: PaneMirrorState, query: Extract<MirrorCommand, { request: number }>): void {
    const { terminal } = state;
    const reply = (value: unknown) => this.send({ kind: 'answer', request: query.request, value });
    switch (query.op) {
      case 'readBlock':
        void state.outputs.read(query.blockId).then((output) => {
          const printed = state.printed.of(query.blockId);
          reply(output && printed ? { ...output, printed } : output);
        });
        return;
      case 'serialize':
        // Runs right after the bytes queued before it are parsed, before any later ones.
        terminal.afterPendingWrites(() => reply(terminal.serialize(query.scrollback)));
        return;
      case 'snapshot':
        terminal.afterPendingWrites(() => {
          const { screen, state: terminalState } = terminal.reattachSnapshot();
          reply({ text: screen, state: terminalState, blocks: state.outputs.positions(terminal.serializedRows()) });
        });
        return;
      case 'screenText':
        terminal.afterPendingWrites(() => reply(terminal.screenText()));
        return;
      case 'cursorLine':
        terminal.afterPendingWrites(() => reply({ text: terminal.cursorLineText(), alternateScreen: terminal.isAlternateScreen }));
        return;
      case 'promptLine':
        terminal.afterPendingWrites(() => {
          const mark = state.takeMark(query.mark);
          const row = mark && !mark.marker.isDisposed ? mark.marker.line : undefined;
          mark?.marker.dispose();
          if (row === undefined) return reply(undefined);
          const line = terminal.logicalLineAt(row);
          state.marks.set(query.startMark, terminal.markRow(line.lastRow + 1));
          reply({ text: line.text });
        });
        return;
    }
  }

  /** Pty output: parsed now, or held while it is plain text flooding by (DeferredPlainOutput). */
  private writeOutput(mirror: number, state: PaneMirrorState, data: Uint8Array, mayWait = true): void {
    const { terminal } = state;
    if (mayWait && (state.waiting.length > 0 || state.deferred.waitsForIdle(terminal))) {
      state.waiting.push(data);
      if (state.waiting.length === 1) terminal.afterPendingWrites(() => this.writeWaiting(mirror, state, true));
      return;
    }
    const now = state.deferred.push(data, terminal);
    if (now.length === 0) {
      // Held: as good as parsed for flow control, since what is held is bounded. Only plain
      // text on a plain screen is held.
      this.send({ kind: 'parsed', mirror, bytes: data.byteLength, plainScreen: true });
      clearTimeout(state.releaseTimer);
      state.releaseTimer = setTimeout(() => state.releaseHeld(), MIRROR_RELEASE_AFTER_QUIET_MS);
      return;
    }
    clearTimeout(state.releaseTimer);
    state.releaseTimer = undefined;
    // `now` ends with this chunk (after what was held, already acknowledged).
    for (const bytes of now) terminal.write(bytes);
    terminal.afterPendingWrites(() => {
      this.send({ kind: 'parsed', mirror, bytes: data.byteLength, plainScreen: terminal.plainScreen });
      this.reportModes(mirror, state);
    });
  }

  /** Output that waited for the terminal to be idle, in order (`mayWait`: some may wait again). */
  private writeWaiting(mirror: number, state: PaneMirrorState, mayWait: boolean): void {
    const waiting = state.waiting;
    if (waiting.length === 0) return;
    state.waiting = [];
    for (const data of waiting) this.writeOutput(mirror, state, data, mayWait);
  }

  private reportModes(mirror: number, state: PaneMirrorState): void {
    const modes = { alternateScreen: state.terminal.isAlternateScreen, bracketedPaste: state.terminal.bracketedPasteMode };
    if (modes.alternateScreen === state.modes.alternateScreen && modes.bracketedPaste === state.modes.bracketedPaste) return;
    state.modes = modes;
    this.send({ kind: 'modes', mirror, ...modes });
  }
}

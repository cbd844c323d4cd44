import type { SnapshotBlock } from '../../../shared/protocol';
import type { BlockOutput } from './blockOutputs';

/**
 * Messages between the engine's main thread and the mirror thread. Every message names
 * the mirror it is for (one per pane). The thread handles them in order, and everything
 * that reads the screen runs once the bytes sent before it are parsed.
 */
export type MirrorCommand =
  | { op: 'open'; mirror: number; cols: number; rows: number; scrollback: number }
  | { op: 'write'; mirror: number; data: Uint8Array | string }
  | { op: 'resize'; mirror: number; cols: number; rows: number }
  | { op: 'close'; mirror: number }
  /** Output of `blockId` starts on the cursor's line. */
  | { op: 'blockStart'; mirror: number; blockId: string }
  /** Output of `blockId` starts where mark `mark` is (set by `promptLine`). */
  | { op: 'blockStartAtMark'; mirror: number; blockId: string; mark: number }
  | { op: 'blockEnd'; mirror: number; blockId: string }
  /** Mark the cursor's line as parsed so far, without waiting for pending bytes. */
  | { op: 'markCursorLine'; mirror: number; mark: number }
  | { op: 'disposeMark'; mirror: number; mark: number }
  | (MirrorQuery & { mirror: number; request: number });

export type MirrorQuery =
  | { op: 'readBlock'; blockId: string }
  | { op: 'serialize'; scrollback?: number }
  /**
   * For a re-attaching client: the normal screen and scrollback serialized, where the blocks
   * in it lie, and the rest of the terminal's state (alternate screen, cursor, modes).
   */
  | { op: 'snapshot' }
  | { op: 'screenText' }
  /**
   * The logical line at mark `mark` (which is then dropped), and a new mark `startMark` on
   * the row after it, where the output of a command typed on that line begins.
   */
  | { op: 'promptLine'; mark: number; startMark: number }
  | { op: 'cursorLine' };

export interface MirrorAnswers {
  readBlock: BlockOutput | undefined;
  serialize: string;
  snapshot: { text: string; state: string; blocks: SnapshotBlock[] };
  screenText: string;
  promptLine: { text: string } | undefined;
  cursorLine: { text: string; alternateScreen: boolean };
}

export type MirrorEvent =
  /** The thread has loaded and listens: commands are posted to it from now on. */
  | { kind: 'ready' }
  | { kind: 'answer'; request: number; value: unknown }
  /**
   * `bytes` more of this mirror's output are parsed (flow control); `plainScreen`: right after
   * them, plain text would go down the screen and into the scrollback in the ordinary way.
   */
  | { kind: 'parsed'; mirror: number; bytes: number; plainScreen: boolean }
  /** Terminal modes the engine needs, sent when they change. */
  | { kind: 'modes'; mirror: number; alternateScreen: boolean; bracketedPaste: boolean };

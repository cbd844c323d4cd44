/** A command block: one command the shell ran, from its OSC 133 C mark to its D mark. */
export interface Block {
  /** Stable id, `p<paneId>b<ordinal>`, given by the engine's block tracker. */
  id: string;
  paneId: number;
  /** The exact command line as typed (may contain newlines). Empty when unknown. */
  command: string;
  /** Working directory when the command started, or '' when unknown. */
  cwd: string;
  startedAt: number;
  /** Absent while running. */
  endedAt?: number;
  /** Absent while running or when the shell did not report one. */
  exitCode?: number;
  /** True only when the marks carried this session's nonce (our own integration). */
  trusted: boolean;
  /** Byte offset in the pane's output stream where the command output begins (C mark). */
  outputOffset: number;
  /** Byte offset just past the mark (or heuristic prompt) that finished the block. Absent while running. */
  outputEndOffset?: number;
  /** Whether the program switched to the alternate screen (vim, less, htop) while running. */
  usedAlternateScreen: boolean;
}

/** PROMPT: at a prompt, user typing. EXECUTING: a command runs. IDLE: finished, before the next prompt. */
export type TerminalState = 'PROMPT' | 'EXECUTING' | 'IDLE';

export function blockId(paneId: number, ordinal: number): string {
  return `p${paneId}b${ordinal}`;
}

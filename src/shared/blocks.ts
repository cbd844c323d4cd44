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
  /**
   * The host the command ran on, for a block of a remote shell reached with `ssh` (what the
   * remote said about itself: a label, not proof). Absent for the local shell's blocks.
   */
  host?: string;
  /** The remote user, with `host`. */
  user?: string;
  /** True only when the marks carried this session's nonce (our own integration). */
  trusted: boolean;
  /** Byte offset in the pane's output stream where the command output begins (C mark). */
  outputOffset: number;
  /** Byte offset just past the mark (or heuristic prompt) that finished the block. Absent while running. */
  outputEndOffset?: number;
  /** Whether the program switched to the alternate screen (vim, less, htop) while running. */
  usedAlternateScreen: boolean;
  /**
   * The user quit a pager before the command was done writing to it (`q` in `git log`'s
   * less): the writer got SIGPIPE, exit 141. The exit code stays as it is; the block counts
   * as quit, not failed (see blockFailed).
   */
  pagerQuit?: boolean;
}

/** SIGPIPE's exit status (128 + 13): what a writer ends with when its pager is gone. */
export const SIGPIPE_EXIT = 141;

/**
 * Whether the user quit a pager and that is all that went wrong: exit 141 after the user
 * typed into a pager (or a full-screen program) the block ran. Any other status is what it
 * says, so a real failure behind a pager (`git log` in no repository: 128) stays a failure.
 */
export function isPagerQuit(exitCode: number | undefined, userTypedInPager: boolean): boolean {
  return exitCode === SIGPIPE_EXIT && userTypedInPager;
}

/** A finished block that failed: a non-zero exit code that is not a quit pager. */
export function blockFailed(block: Pick<Block, 'exitCode' | 'pagerQuit'>): boolean {
  return block.exitCode !== undefined && block.exitCode !== 0 && !block.pagerQuit;
}

/** PROMPT: at a prompt, user typing. EXECUTING: a command runs. IDLE: finished, before the next prompt. */
export type TerminalState = 'PROMPT' | 'EXECUTING' | 'IDLE';

export function blockId(paneId: number, ordinal: number): string {
  return `p${paneId}b${ordinal}`;
}

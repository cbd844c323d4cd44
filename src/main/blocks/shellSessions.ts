import type { Block, TerminalState } from '../../shared/blocks';
import type { RemoteShellInfo } from '../osc/marks';

/**
 * One shell of a pane's session stack: the local shell first, then each remote shell reached
 * with `ssh` on top of the one that ran it. Each has its own nonce, prompt state, cwd and
 * running block; only the top one's marks make blocks (docs/architecture.md).
 */
export interface ShellSession {
  nonce: string;
  /** Absent for the pane's own (local) shell. */
  remote?: RemoteShellInfo;
  state: TerminalState;
  cwd: string;
  /** The running block, and whether the user typed into a pager it ran (a 141 from it is a quit, not a failure). */
  current: { block: Block; typedInPager: boolean } | undefined;
  pendingCommandLine: string | undefined;
  /** Our A marks carry the cwd: OSC 7 (which any program can print) is then ignored. */
  cwdFromOurMarks: boolean;
  /** Number of the last prompt our integration announced (a repeat is a redraw). */
  lastPrompt: string | undefined;
}

export function newShellSession(nonce: string, cwd: string, remote?: RemoteShellInfo): ShellSession {
  return { nonce, remote, state: 'IDLE', cwd, current: undefined, pendingCommandLine: undefined, cwdFromOurMarks: false, lastPrompt: undefined };
}

/** Where a mark's nonce puts it: the top shell's, a shell below it (index), or nobody's. */
export type NonceOwner = { kind: 'top' } | { kind: 'below'; index: number } | { kind: 'unknown' };

export function nonceOwner(sessions: readonly ShellSession[], nonce: string | undefined): NonceOwner {
  if (nonce === undefined) return { kind: 'unknown' };
  for (let i = sessions.length - 1; i >= 0; i--) {
    if (sessions[i]!.nonce !== nonce) continue;
    return i === sessions.length - 1 ? { kind: 'top' } : { kind: 'below', index: i };
  }
  return { kind: 'unknown' };
}

import type { Block, TerminalState } from '../../shared/blocks';
import type { Disposable } from '../../shared/events';
import type { BlockOutput } from '../blocks/mirror/blockOutputs';
import type { RemoteShellInfo } from '../osc/marks';
import type { PaneWatcher } from '../panes/paneWatcher';

export type { PaneWatcher };

export interface TypeCommandOptions {
  /** The variables exported for this command line alone; asked for once the line is echoed, right before Enter. */
  env?: () => Readonly<Record<string, string>> | undefined;
  /** Runs right before Enter, once the line is typed and echoed: the command has not run yet. */
  beforeEnter?: () => void;
}

/**
 * The part of a terminal pane the agent uses. The engine's Pane implements it; tests of
 * the step and plan runners use a fake.
 */
export interface AgentPane {
  readonly id: number;
  readonly cwd: string;
  readonly state: TerminalState;
  readonly exited: boolean;
  /** A full-screen program (vim, less) has the screen. */
  readonly isAlternateScreen: boolean;
  /** bash, zsh, fish... */
  readonly shellName: string;
  /** The environment given to `typeCommand` reaches the command (the shell integration exports it). */
  readonly stepEnvApplies: boolean;
  blocks(): Block[];
  /** What the pane's shell exports now (its start, updated by the integration's reports). */
  environment?(): Readonly<Record<string, string>>;
  /** Clean text a block printed; undefined for a block the pane does not know. */
  outputOf(blockId: string): Promise<BlockOutput | undefined>;
  /**
   * Types a whole command at the prompt and presses Enter, as if the user had; `env` is
   * exported for that command line alone (with shell integration; without, it is not set).
   * The line goes to the shell first; `env` and `beforeEnter` wait for its echo, right before Enter.
   */
  typeCommand(command: string, options?: TypeCommandOptions): void;
  /** Ctrl+C. */
  interrupt(): void;
  /** SIGKILL for the foreground job; false when there is none. */
  killForeground(): boolean;
  /** The pager (`less`, git's `pager`…) in the foreground, waiting for keys, if there is one. */
  foregroundPager(): string | undefined;
  /** Presses `q` for a pager in the foreground; returns its name, or undefined when there is none. */
  quitPager(): string | undefined;
  observe(watcher: PaneWatcher): Disposable;
  /** The visible screen as text, exactly as the engine's mirror holds it. */
  screenText?(): Promise<string>;
  /** The remote shell the pane is on (reached with `ssh`, integrated): host, user, OS, arch, login shell; undefined on this machine. */
  readonly remote?: Readonly<RemoteShellInfo>;
}

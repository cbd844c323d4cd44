import type { Block } from '../../../shared/blocks';
import type { Disposable } from '../../../shared/events';
import type { BlockOutput } from '../../blocks/mirror/blockOutputs';
import type { AgentPane } from '../agentPane';

/** How long after a prompt without a command start the step counts as not run. */
const NOT_RUN_GRACE_MS = 1_500;
/** A running step silent this long may be waiting for input: the plan view says so. */
const QUIET_MS = 15_000;

export type StepOutcome =
  | { kind: 'finished'; block: Block; output: BlockOutput; timedOut: boolean; interrupted: boolean }
  /** The shell showed its next prompt without running anything (a syntax error, say). */
  | { kind: 'not-run'; message: string }
  | { kind: 'pane-gone'; message: string }
  /** Cancelled before it was typed. */
  | { kind: 'cancelled' };

export interface StepRunOptions {
  timeoutMs: number;
  /** After SIGINT on timeout, how long before the foreground job is killed. */
  killGraceMs?: number;
  /** Progress for the plan view: "waiting for the prompt", "timed out: interrupted" ... */
  onDetail?(detail: string | undefined): void;
  onBlockStarted?(block: Block): void;
}

/** A second Ctrl+C when the first did not end the step by then. */
const INTERRUPT_RETRY_MS = 1_000;

/**
 * Runs one command in a visible pane as if the user typed it: waits until the pane is at a
 * prompt, types the command and Enter, and resolves with the block it produced. A step
 * that runs past its timeout gets Ctrl+C, then SIGKILL for its foreground job.
 */
export class StepRunner {
  private stop: (() => void) | undefined;
  private cancelled = false;
  private typed = false;
  private interruptedByUser = false;
  private interruptRetry: NodeJS.Timeout | undefined;

  constructor(
    private readonly pane: AgentPane,
    private readonly command: string,
    private readonly options: StepRunOptions,
  ) {}

  run(): Promise<StepOutcome> {
    return new Promise<StepOutcome>((resolve) => {
      const timers: NodeJS.Timeout[] = [];
      let block: Block | undefined;
      let timedOut = false;
      let notRunTimer: NodeJS.Timeout | undefined;
      let quietTimer: NodeJS.Timeout | undefined;
      const finish = (outcome: StepOutcome) => {
        for (const timer of timers) clearTimeout(timer);
        clearTimeout(this.interruptRetry);
        clearTimeout(quietTimer);
        watching.dispose();
        this.stop = undefined;
        this.options.onDetail?.(undefined);
        resolve(outcome);
      };
      const type = () => {
        if (this.typed) return;
        this.typed = true;
        // Type first: the panel's update can wait a moment, the shell should not.
        this.pane.typeCommand(this.command);
        this.options.onDetail?.(undefined);
        timers.push(setTimeout(onTimeout, this.options.timeoutMs));
      };
      const onTimeout = () => {
        timedOut = true;
        this.options.onDetail?.(`ran longer than ${formatSeconds(this.options.timeoutMs)}: interrupted (Ctrl+C)`);
        this.pane.interrupt();
        timers.push(
          setTimeout(() => {
            if (this.pane.killForeground()) this.options.onDetail?.('ignored Ctrl+C: killed');
          }, this.options.killGraceMs ?? 5_000),
        );
      };
      let quietShown = false;
      const armQuiet = () => {
        clearTimeout(quietTimer);
        if (!block || timedOut) return;
        if (quietShown) {
          quietShown = false;
          this.options.onDetail?.(undefined);
        }
        quietTimer = setTimeout(() => {
          quietShown = true;
          this.options.onDetail?.(`no output for ${QUIET_MS / 1000} s: it may be waiting for input (a password or a question) in pane ${this.pane.id}`);
        }, QUIET_MS);
      };
      const watching: Disposable = this.pane.observe({
        output: () => {
          if (!block || this.pane.isAlternateScreen) return;
          armQuiet();
        },
        alternateScreen: () => {
          if (!block) return;
          clearTimeout(quietTimer);
          this.options.onDetail?.(`a full-screen program (a pager or an editor?) is open in pane ${this.pane.id}: finish it there, or cancel the step`);
        },
        blockStarted: (started) => {
          if (!this.typed || block) return;
          block = started;
          clearTimeout(notRunTimer);
          armQuiet();
          this.options.onBlockStarted?.(started);
        },
        blockFinished: (finished) => {
          if (!block || finished.id !== block.id) return;
          void this.pane.outputOf(finished.id).then((output) =>
            finish({
              kind: 'finished',
              block: finished,
              output: output ?? { text: '', truncated: false, lineCount: 0 },
              timedOut,
              interrupted: this.interruptedByUser,
            }),
          );
        },
        promptShown: () => {
          if (!this.typed) {
            if (!this.cancelled) type();
            return;
          }
          // A prompt can also be a redraw of the line being edited (bash re-prints PS1, which
          // carries the mark); only a prompt with no command start after it means nothing ran.
          if (!block) {
            clearTimeout(notRunTimer);
            notRunTimer = setTimeout(() => {
              if (!block) finish({ kind: 'not-run', message: 'The shell showed a new prompt without running the command (a syntax error?).' });
            }, NOT_RUN_GRACE_MS);
            timers.push(notRunTimer);
          }
        },
        exited: () => finish({ kind: 'pane-gone', message: `The shell in pane ${this.pane.id} exited.` }),
      });
      this.stop = () => finish({ kind: 'cancelled' });
      if (this.pane.exited) {
        finish({ kind: 'pane-gone', message: `The shell in pane ${this.pane.id} has exited.` });
        return;
      }
      if (this.pane.state === 'PROMPT') type();
      else this.options.onDetail?.(`waiting for the prompt in pane ${this.pane.id}`);
    });
  }

  /**
   * Esc / Ctrl+C from the panel: a typed step gets SIGINT (as Ctrl+C in the pane would);
   * one still waiting for the prompt is not typed at all.
   */
  interrupt(): void {
    if (this.typed) {
      this.interruptedByUser = true;
      this.pane.interrupt();
      // A Ctrl+C that lands just as the shell starts the command can be lost (seen under load,
      // with the block already started); as a user would, press it once more if nothing ended.
      clearTimeout(this.interruptRetry);
      this.interruptRetry = setTimeout(() => {
        if (this.stop) this.pane.interrupt();
      }, INTERRUPT_RETRY_MS);
      return;
    }
    this.cancelled = true;
    this.stop?.();
  }
}

function formatSeconds(ms: number): string {
  return ms % 60_000 === 0 ? `${ms / 60_000} min` : `${Math.round(ms / 1000)} s`;
}

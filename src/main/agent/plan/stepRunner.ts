import type { Block } from '../../../shared/blocks';
import { DisposableStore } from '../../../shared/events';
import type { BlockOutput } from '../../blocks/mirror/blockOutputs';
import type { AgentPane } from '../agentPane';

/** How long after a prompt without a command start the step counts as not run. */
const NOT_RUN_GRACE_MS = 1_500;
/** A running step silent this long may be waiting for input: the plan view says so. */
const QUIET_MS = 15_000;
/** A step silent this long is looked at for a pager waiting for a key (less -X shows no alternate screen). */
const PAGER_CHECK_MS = 1_000;

export type StepOutcome =
  /** `interruption`: who or what ended it, for the model ("the user pressed Stop on the auto run's banner"). */
  | { kind: 'finished'; block: Block; output: BlockOutput; timedOut: boolean; interrupted: boolean; interruption?: string }
  /** The shell showed its next prompt without running anything (a syntax error, say). */
  | { kind: 'not-run'; message: string }
  | { kind: 'pane-gone'; message: string }
  /** Cancelled before it was typed. */
  | { kind: 'cancelled' };

/** A step that ran to its end: its block and output. */
export type FinishedRun = Extract<StepOutcome, { kind: 'finished' }>;

export interface StepRunOptions {
  timeoutMs: number;
  /** Exported for the step's command line alone (NO_PAGER_ENV); asked for right before Enter. */
  env?: () => Readonly<Record<string, string>> | undefined;
  /** After SIGINT on timeout, how long before the foreground job is killed. */
  killGraceMs?: number;
  /** Progress for the plan view: "waiting for the prompt", "timed out: interrupted" ... */
  onDetail?(detail: string | undefined): void;
  onBlockStarted?(block: Block): void;
  /** Right before Enter, once the line is typed and echoed: what must see the world as it was before the command (a look at Tandem's own files). */
  beforeEnter?(): void;
  /** The keys were written to the shell. */
  onTyped?(): void;
  /** The shell answered them: the first output after them, or the command's start. */
  onEchoed?(): void;
}

/** After `q` to a pager, how long before Ctrl+C. */
const PAGER_QUIT_MS = 1_000;
/** A second Ctrl+C when the first did not end the step by then. */
const INTERRUPT_RETRY_MS = 1_000;
/** After the second Ctrl+C of a cancel, how long before the foreground job gets SIGKILL. */
const CANCEL_KILL_GRACE_MS = 3_000;
/** After the user's own Ctrl+C in the pane, how long the prompt has to come back before Tandem sends one. */
const USER_CTRL_C_GRACE_MS = 3_000;

/** Why a running step is ended, when more is known than "the user cancelled it". */
export interface StepInterruption {
  /** For the model: "the user pressed Ctrl+C in the pane". */
  reason: string;
  /** The user's own Ctrl+C already reached the pane: a second one from Tandem would only leave a `^C` prompt line. */
  ctrlCSent?: boolean;
}

/** One thing done to end a running step; `undefined` when it does not apply (no pager to quit). */
interface EndingStage {
  act(): string | undefined;
  /** How long to wait for the prompt before the next stage. */
  waitMs: number;
}

/**
 * Runs one command in a visible pane as if the user typed it: waits until the pane is at a
 * prompt, types the command and Enter, and resolves with the block it produced.
 *
 * A step that must end (cancelled, or past its timeout) is ended for real, one stage after
 * another while its prompt has not come back: `q` when a pager is in the foreground (less
 * ignores Ctrl+C), Ctrl+C, Ctrl+C again (cancel), then SIGKILL for the foreground job. Cancel
 * again and the next stage comes at once.
 */
export class StepRunner {
  private stop: (() => void) | undefined;
  private cancelled = false;
  private typed = false;
  private interruptedByUser = false;
  private interruption: string | undefined;
  private ending: EndingStage[] | undefined;
  private endingTimer: NodeJS.Timeout | undefined;

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
      let echoed = false;
      let waitedForPrompt = false;
      const watching = new DisposableStore();
      const echo = () => {
        if (echoed || !this.typed) return;
        echoed = true;
        this.options.onEchoed?.();
      };
      const finish = (outcome: StepOutcome) => {
        echo();
        for (const timer of timers) clearTimeout(timer);
        clearTimeout(this.endingTimer);
        this.ending = [];
        clearTimeout(quietTimer);
        clearTimeout(pagerTimer);
        watching.dispose();
        this.stop = undefined;
        this.options.onDetail?.(undefined);
        resolve(outcome);
      };
      const type = () => {
        if (this.typed) return;
        this.typed = true;
        // Type first: the panel's update can wait a moment, the shell should not.
        this.pane.typeCommand(this.command, { env: this.options.env, beforeEnter: this.options.beforeEnter });
        this.options.onTyped?.();
        if (waitedForPrompt) this.options.onDetail?.(undefined);
        timers.push(setTimeout(onTimeout, this.options.timeoutMs));
      };
      const onTimeout = () => {
        timedOut = true;
        clearTimeout(quietTimer);
        clearTimeout(pagerTimer);
        const why = `ran longer than ${formatSeconds(this.options.timeoutMs)}`;
        this.beginEnding([this.quitPagerStage(why), this.interruptStage(why, this.options.killGraceMs ?? 5_000), this.killStage()]);
      };
      let quietShown = false;
      let pagerTimer: NodeJS.Timeout | undefined;
      const armQuiet = () => {
        clearTimeout(quietTimer);
        clearTimeout(pagerTimer);
        if (!block || timedOut || this.ending) return;
        if (quietShown) {
          quietShown = false;
          this.options.onDetail?.(undefined);
        }
        pagerTimer = setTimeout(() => {
          const pager = this.pane.foregroundPager();
          if (!pager) return;
          quietShown = true;
          this.options.onDetail?.(this.waitingInPager(pager));
        }, PAGER_CHECK_MS);
        quietTimer = setTimeout(() => {
          quietShown = true;
          const pager = this.pane.foregroundPager();
          this.options.onDetail?.(
            pager ? this.waitingInPager(pager) : `no output for ${QUIET_MS / 1000} s: it may be waiting for input (a password or a question) in pane ${this.pane.id}`,
          );
        }, QUIET_MS);
      };
      this.stop = () => finish({ kind: 'cancelled' });
      if (this.pane.exited) {
        finish({ kind: 'pane-gone', message: `The shell in pane ${this.pane.id} has exited.` });
        return;
      }
      // At a prompt the keys go before the watching is set up: no output can come in between.
      if (this.pane.state === 'PROMPT') type();
      else {
        waitedForPrompt = true;
        this.options.onDetail?.(`waiting for the prompt in pane ${this.pane.id}`);
      }
      watching.add(
        this.pane.observe({
          output: () => {
            echo();
            if (!block || this.pane.isAlternateScreen) return;
            armQuiet();
          },
          alternateScreen: () => {
            if (!block || this.ending) return;
            clearTimeout(quietTimer);
            clearTimeout(pagerTimer);
            const pager = this.pane.foregroundPager();
            this.options.onDetail?.(
              pager ? this.waitingInPager(pager) : `a full-screen program (a pager or an editor?) is open in pane ${this.pane.id}: finish it there, or cancel the step`,
            );
          },
          blockStarted: (started) => {
            if (!this.typed || block) return;
            echo();
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
                ...(this.interruption ? { interruption: this.interruption } : {}),
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
        }),
      );
    });
  }

  /**
   * Esc / Ctrl+C from the panel: a typed step is ended (`q` to a pager, Ctrl+C, Ctrl+C once
   * more, SIGKILL, each while its prompt has not come back); again while it is being ended,
   * the next stage comes at once. A step still waiting for the prompt is not typed at all.
   * When the user's own Ctrl+C reached the pane already, Tandem's first Ctrl+C waits a few
   * seconds for the prompt instead (sent at once, it would reach the shell's next prompt).
   */
  interrupt(cause?: StepInterruption): void {
    if (!this.typed) {
      this.cancelled = true;
      this.stop?.();
      return;
    }
    if (!this.stop) return;
    this.interruptedByUser = true;
    this.interruption ??= cause?.reason;
    if (this.ending) {
      if (this.ending.length > 0) this.nextEndingStage();
      else this.pane.interrupt();
      return;
    }
    // The second Ctrl+C: one that lands just as the shell starts the command can be lost
    // (seen under load, with the block already started); a user would press it once more.
    this.beginEnding([
      this.quitPagerStage('cancelling'),
      cause?.ctrlCSent ? this.waitStage('cancelling: Ctrl+C in the pane', USER_CTRL_C_GRACE_MS) : this.interruptStage('cancelling', INTERRUPT_RETRY_MS),
      this.interruptStage('cancelling', CANCEL_KILL_GRACE_MS),
      this.killStage(),
    ]);
  }

  private beginEnding(stages: EndingStage[]): void {
    this.ending = stages;
    this.nextEndingStage();
  }

  /** The next stage that applies, while the step runs; the one after it follows unless the prompt comes back. */
  private nextEndingStage(): void {
    clearTimeout(this.endingTimer);
    while (this.stop && this.ending && this.ending.length > 0) {
      const stage = this.ending.shift()!;
      const detail = stage.act();
      if (detail === undefined) continue;
      this.options.onDetail?.(detail);
      if (this.ending.length > 0) this.endingTimer = setTimeout(() => this.nextEndingStage(), stage.waitMs);
      return;
    }
  }

  private quitPagerStage(why: string): EndingStage {
    return {
      waitMs: PAGER_QUIT_MS,
      act: () => {
        const pager = this.pane.quitPager();
        return pager && `${why}: asked ${pager} to quit (q)`;
      },
    };
  }

  /** Nothing is sent: the prompt has `waitMs` to come back before the next stage. */
  private waitStage(detail: string, waitMs: number): EndingStage {
    return { waitMs, act: () => detail };
  }

  private interruptStage(why: string, waitMs: number): EndingStage {
    return {
      waitMs,
      act: () => {
        this.pane.interrupt();
        return `${why}: interrupted (Ctrl+C)`;
      },
    };
  }

  private killStage(): EndingStage {
    return {
      waitMs: 0,
      act: () =>
        this.pane.killForeground()
          ? 'ignored Ctrl+C: killed'
          : `ignored Ctrl+C and there is no job Tandem can kill (under sudo?): end it in pane ${this.pane.id}`,
    };
  }

  private waitingInPager(pager: string): string {
    return `waiting in a pager (${pager}) in pane ${this.pane.id}: press q there, or cancel the step`;
  }
}

function formatSeconds(ms: number): string {
  return ms % 60_000 === 0 ? `${ms / 60_000} min` : `${Math.round(ms / 1000)} s`;
}

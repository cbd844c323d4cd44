import type { HintPattern } from '../../shared/companion';
import { isInterruption } from './expectedFailure';

export interface HintThresholds {
  /** Counted failures in a row for an error cascade. */
  errorCascade: number;
  /** Failures in a row of the same command for a retry loop. */
  retryLoop: number;
}

export interface FinishedCommand {
  command: string;
  /** Undefined when the shell did not say (no integration): it counts for nothing. */
  exitCode?: number;
}

/** Tells a failure that answers a question (`grep -q` saying no) from one that counts. */
export interface FailureJudge {
  isExpected(commandLine: string, exitCode: number): boolean;
}

/** A judge for whom every failure counts: where no hint is shown, the grammar is not worth loading. */
export const EVERY_FAILURE_COUNTS: FailureJudge = { isExpected: () => false };

export interface DetectorStep {
  /** A hint to show now. */
  hint?: HintPattern;
  /** A success ended the episode: any hint shown for it goes away. */
  episodeEnded: boolean;
  /** The last command was a counted failure and the episode has had no hint: a long pause may give one. */
  pauseCanHint: boolean;
}

/**
 * Watch mode's patterns for one pane, from finished commands alone. An episode starts at the
 * first counted failure and ends at a success; it gets one hint at most, whichever pattern
 * comes first (a retry loop wins a tie: it says more). Interrupted commands and expected
 * failures (expectedFailure.ts) change nothing.
 */
export class HintDetector {
  private failures = 0;
  private repeats = 0;
  private lastFailedCommand: string | undefined;
  private hinted = false;
  private lastCounted = false;

  constructor(private readonly judge: FailureJudge) {}

  finished(command: FinishedCommand, thresholds: HintThresholds): DetectorStep {
    const { exitCode } = command;
    if (exitCode === 0) {
      const episodeEnded = this.failures > 0 || this.hinted;
      this.failures = 0;
      this.repeats = 0;
      this.lastFailedCommand = undefined;
      this.hinted = false;
      this.lastCounted = false;
      return { episodeEnded, pauseCanHint: false };
    }
    if (exitCode === undefined || isInterruption(exitCode) || this.judge.isExpected(command.command, exitCode)) {
      this.lastCounted = false;
      return { episodeEnded: false, pauseCanHint: false };
    }
    const normalized = normalizeCommand(command.command);
    this.failures++;
    this.repeats = normalized !== '' && normalized === this.lastFailedCommand ? this.repeats + 1 : 1;
    this.lastFailedCommand = normalized;
    this.lastCounted = true;
    let hint: HintPattern | undefined;
    if (!this.hinted) {
      if (normalized !== '' && this.repeats >= thresholds.retryLoop) hint = 'retry-loop';
      else if (this.failures >= thresholds.errorCascade) hint = 'error-cascade';
    }
    if (hint) this.hinted = true;
    return { hint, episodeEnded: false, pauseCanHint: !this.hinted };
  }

  /** The user has not typed for the long-pause time since the last command failed. */
  paused(): HintPattern | undefined {
    if (this.hinted || !this.lastCounted) return undefined;
    this.hinted = true;
    return 'long-pause';
  }
}

/** Whitespace does not make a different command: `make  test` is `make test` again. */
export function normalizeCommand(command: string): string {
  return command.trim().replace(/\s+/g, ' ');
}

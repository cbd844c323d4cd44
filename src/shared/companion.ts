/** The companion's state and Watch mode's hints, as the engine reports them and the renderer shows them. */

/** `auto` while an `!auto <task>` run works; `off` when hints are switched off. */
export type CompanionMode = 'watch' | 'auto' | 'off';

export const HINT_PATTERNS = ['error-cascade', 'retry-loop', 'long-pause'] as const;
export type HintPattern = (typeof HINT_PATTERNS)[number];

/** The seed's texts, one per pattern. */
export const HINT_TEXTS: Record<HintPattern, string> = {
  'error-cascade': 'Stuck? `??` for help',
  'retry-loop': "Try `?? why isn't this working`",
  'long-pause': 'Need help with that error?',
};

export interface CompanionHint {
  paneId: number;
  pattern: HintPattern;
  /** The failed block the hint is about (its gutter mark gets the badge). */
  blockId: string;
  text: string;
}

/** An `!auto <task>` run while it works: the pane's banner and the status bar show it. */
export interface AutoView {
  task: string;
  /** The pane it works in (its banner, its Ctrl+C ends the run). */
  paneId: number;
  startedAt: number;
  /** Steps proposed so far, of at most `maxSteps`. */
  steps: number;
  /**
   * The number (across the run) of the step it is on: the first one running or waiting, else
   * the last one proposed; 0 before any. Two steps proposed while the first runs: 1.
   */
  current: number;
  maxSteps: number;
  /** Set once the run was told to stop, while its last step or answer ends. */
  stopping?: string;
}

/** What the user pressed to stop an auto run. */
export type AutoStopper = 'ctrl-c' | 'stop-button' | 'panel';

/** The control, in words: "Ctrl+C in the pane". */
export const AUTO_STOPPER_WORDS: Record<AutoStopper, string> = {
  'ctrl-c': 'Ctrl+C in the pane',
  'stop-button': 'Stop on its banner',
  panel: 'Esc in the AI panel',
};

/** Why an auto run ended. */
export type AutoEnd =
  /** The model answered without asking for anything more: it says the task is done (or cannot be). */
  | { kind: 'done' }
  /** ctrl-c: in the run's pane; stop-button: Stop on its banner; panel: Esc (or Ctrl+C) in the AI panel. */
  | { kind: 'stopped'; by: AutoStopper }
  | { kind: 'limit'; limit: 'steps' | 'time' | 'tokens' | 'session-budget' | 'daily-budget'; detail: string }
  | { kind: 'failed'; detail: string };

/** One step of the run as the summary lists it; `planId`/`stepId` lead to its card (an edit's diff). */
export interface AutoSummaryStep {
  planId: string;
  stepId: string;
  /** A look at the screen counts as a command; a UI action's `command` is the action in words. */
  kind: 'command' | 'edit' | 'ui';
  command: string;
  /** done, failed, denied (refused or denied), skipped, ... */
  status: string;
  exitCode?: number;
  /** An edit's file. */
  path?: string;
  /** Why it did not run, or did not finish. */
  detail?: string;
}

/** Tandem's own account of an auto run, from what happened (the model is not asked for it). */
export interface AutoSummary {
  task: string;
  end: AutoEnd;
  durationMs: number;
  tokens: number;
  steps: AutoSummaryStep[];
}

/** For the user: "stopped by you (Ctrl+C in the pane)", "the time limit of 30 min was reached" ... (the model gets its own words). */
export function describeAutoEnd(end: AutoEnd): string {
  switch (end.kind) {
    case 'done':
      return 'the agent said it is done';
    case 'stopped':
      return `stopped by you (${AUTO_STOPPER_WORDS[end.by]})`;
    case 'limit':
    case 'failed':
      return end.detail;
  }
}

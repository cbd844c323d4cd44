/** The companion's state and Watch mode's hints, as the engine reports them and the renderer shows them. */

/** `auto` arrives with `!auto <task>` (not built yet); `off` when hints are switched off. */
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

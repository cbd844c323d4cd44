/** What relevance weighs of one command (its runs among those a search keeps). */
export interface RelevanceFacts {
  /** How well the text matched, 0..1 (0 with no text). */
  match: number;
  /** How long before the newest record in the history its newest run started. */
  ageMs: number;
  runs: number;
  /** Whether it ran in the directory the search is made from. */
  sameDirectory: boolean;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Recency halves every this long: yesterday's command still beats last month's. */
const RECENCY_HALF_LIFE_MS = 3 * DAY_MS;

/**
 * Weights, in points. A command run now scores 4 for recency, one run 1 and ten runs 3.5 for
 * frequency (log2 of runs + 1), same directory 2, and a perfect match 4 (fuzzy quality is 0..1;
 * a substring at the start of the command 1, at a word 0.5, elsewhere 0.25). So at equal age,
 * same directory or a few more runs decide; a command last run a week ago needs about 17 runs
 * to beat one run just now; and a much better fuzzy match outweighs either.
 */
const WEIGHT = { recency: 4, frequency: 1, sameDirectory: 2, match: 4 } as const;

/** The score a command is ranked by, higher first. */
export function relevanceScore(facts: RelevanceFacts): number {
  const recency = 2 ** (-Math.max(0, facts.ageMs) / RECENCY_HALF_LIFE_MS);
  return (
    WEIGHT.match * facts.match +
    WEIGHT.recency * recency +
    WEIGHT.frequency * Math.log2(1 + facts.runs) +
    (facts.sameDirectory ? WEIGHT.sameDirectory : 0)
  );
}

/**
 * fzf-like fuzzy matching of a typed pattern against a command: the pattern's characters must
 * appear in order; among the ways they can, the best one is scored (a dynamic program over
 * pattern × text, like fzf's v2 algorithm). Matches at the start of the command, at the start
 * of a word (after a blank, `/`, `-`, `_`, `.`, `:`, `=` …, or a camelCase hump) and runs of
 * consecutive characters score higher; gaps cost a little. Smart case: a pattern with no
 * capital letter matches either case.
 */

const SCORE_MATCH = 16;
const GAP_START = -3;
const GAP_EXTENSION = -1;
const BONUS_CONSECUTIVE = 6;
const BONUS_START = 10;
const BONUS_WORD = 8;
const BONUS_CAMEL = 7;
/** The first pattern character's position bonus counts double: where a match begins matters most. */
const FIRST_CHARACTER_WEIGHT = 2;
/** Longer commands are scored on their beginning only: the scan stays linear in what is shown. */
const MAX_TEXT = 512;
const NONE = -1e9;

/** ASCII characters after which a word starts. */
const SEPARATOR = new Uint8Array(128);
for (const character of ' \t\n/\\-_.:=,;|&()[]{}"\'`@$<>') SEPARATOR[character.charCodeAt(0)] = 1;

/** One pattern character's row of the program: where it can match and the best score ending there. */
class Row {
  readonly at = new Int32Array(MAX_TEXT);
  readonly score = new Float64Array(MAX_TEXT);
  length = 0;
}
let previous = new Row();
let current = new Row();

/** Whether the pattern is matched case-sensitively (it has a capital letter). */
export function isCaseSensitive(pattern: string): boolean {
  return pattern !== pattern.toLowerCase();
}

/**
 * A scorer of texts against `pattern`: how well it matches each, from 0 (barely) to 1 (the whole
 * pattern is the command's prefix), or -1 when its characters are not all in the text in order.
 * `folded` is the text lower-cased (callers that keep it pass it), used when the pattern has no
 * capital letter.
 */
export function fuzzyScorer(pattern: string): (text: string, folded?: string) => number {
  const caseSensitive = isCaseSensitive(pattern);
  const needle = [...(caseSensitive ? pattern : pattern.toLowerCase())];
  const m = needle.length;
  const perfect = SCORE_MATCH + FIRST_CHARACTER_WEIGHT * BONUS_START + (m - 1) * (SCORE_MATCH + BONUS_CONSECUTIVE);
  return (text, folded) => {
    if (m === 0) return 0;
    const haystack = caseSensitive ? text : (folded ?? text.toLowerCase());
    const best = bestAlignment(needle, haystack, text);
    if (best === null) return -1;
    // The characters are there but past MAX_TEXT: a match, the weakest.
    return best <= 0 ? 0 : Math.min(1, best / perfect);
  };
}

export function fuzzyScore(pattern: string, text: string): number {
  return fuzzyScorer(pattern)(text);
}

/** The best score of the needle's characters in order in the haystack, or null when they are not all there. */
function bestAlignment(needle: string[], haystack: string, text: string): number | null {
  const m = needle.length;
  // No match can start before the first character's first place or end after the last one's last.
  let end = -1;
  for (let i = 0; i < m; i++) {
    end = haystack.indexOf(needle[i]!, end + 1);
    if (end < 0) return null;
  }
  end = Math.min(haystack.lastIndexOf(needle[m - 1]!) + 1, MAX_TEXT);
  // Only the places where each character occurs are visited. A gap from k to j costs
  // GAP_START + GAP_EXTENSION × (j − k − 2): the best gap is the best of prev − GAP_EXTENSION × k.
  previous.length = 0;
  for (let j = haystack.indexOf(needle[0]!); j >= 0 && j < end; j = haystack.indexOf(needle[0]!, j + 1)) {
    previous.at[previous.length] = j;
    previous.score[previous.length++] = SCORE_MATCH + FIRST_CHARACTER_WEIGHT * positionBonus(text, j);
  }
  for (let i = 1; i < m && previous.length > 0; i++) {
    current.length = 0;
    let k = 0;
    let gapBest = NONE;
    for (let j = haystack.indexOf(needle[i]!, previous.at[0]! + 1); j >= 0 && j < end; j = haystack.indexOf(needle[i]!, j + 1)) {
      while (k < previous.length && previous.at[k]! <= j - 2) {
        gapBest = Math.max(gapBest, previous.score[k]! - GAP_EXTENSION * previous.at[k]!);
        k++;
      }
      const consecutive = k < previous.length && previous.at[k] === j - 1 ? previous.score[k]! + BONUS_CONSECUTIVE : NONE;
      const before = Math.max(consecutive, gapBest + GAP_START + GAP_EXTENSION * (j - 2));
      if (before <= NONE / 2) continue;
      current.at[current.length] = j;
      current.score[current.length++] = SCORE_MATCH + positionBonus(text, j) + before;
    }
    const row = previous;
    previous = current;
    current = row;
  }
  let best = 0;
  for (let r = 0; r < previous.length; r++) best = Math.max(best, previous.score[r]!);
  return best;
}

function positionBonus(text: string, j: number): number {
  if (j === 0) return BONUS_START;
  const before = text.charCodeAt(j - 1);
  if (before < 128 && SEPARATOR[before]) return BONUS_WORD;
  const here = text.charCodeAt(j);
  // a-z then A-Z: a camelCase hump (ASCII only).
  if (before >= 97 && before <= 122 && here >= 65 && here <= 90) return BONUS_CAMEL;
  return 0;
}

/**
 * A cheap test before a dear one: the letters a stretch of text holds, as bits (a = 1, b = 2 …,
 * case folded). A stretch lacking a letter of every word in a list holds none of the words, so
 * a rule looking for one of them can pass it over without its regex.
 */

export function letterBits(text: string, start: number, end: number): number {
  let bits = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i) | 0x20;
    if (c >= 97 && c <= 122) bits |= 1 << (c - 97);
  }
  return bits;
}

/** The letter sets of `words`, for `mayHoldOneOf`. */
export const letterSetsOf = (words: readonly string[]): Int32Array => Int32Array.from(words, (word) => letterBits(word, 0, word.length));

/** Whether a stretch with letters `bits` may hold one of the words whose sets are `sets` (it holds every letter of one). */
export function mayHoldOneOf(bits: number, sets: Int32Array): boolean {
  for (let i = 0; i < sets.length; i++) {
    const set = sets[i] as number;
    if ((bits & set) === set) return true;
  }
  return false;
}

/**
 * Counts in words, everywhere one is shown to the user or the model, so "1 line" never reads
 * "1 lines" and "1 line that looks like errors" never "that look": `plural` for the noun,
 * `agree` for the words that go with it.
 */

let numberFormat: Intl.NumberFormat | undefined;

/** "1,234". */
export function formatCount(n: number): string {
  // Whole numbers, nearly every count, are grouped here: a process's first Intl.NumberFormat
  // loads ICU's locale data, about 18 ms of a `tandem audit verify` that prints one count.
  if (Number.isSafeInteger(n) && !Object.is(n, -0)) return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
  numberFormat ??= new Intl.NumberFormat('en-US');
  return numberFormat.format(n);
}

/** "1 line", "1,234 lines"; an irregular plural is given: plural(2, 'entry', 'entries'). */
export function plural(n: number, word: string, pluralWord = `${word}s`): string {
  return `${formatCount(n)} ${n === 1 ? word : pluralWord}`;
}

/** The form that agrees with a count: agree(1, 'looks', 'look') is "looks". */
export function agree(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}

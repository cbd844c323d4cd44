/**
 * The gate's reasons are clauses ("rm deletes your home directory"), kept without a full stop so
 * they fit after a colon. Where several are shown as prose, each must read as a sentence.
 */
const SENTENCE_END = /[.!?…]["'’)\]]*$/;

/** Reasons as prose: each ends with a full stop (unless it already ends a sentence), one after another. */
export function reasonSentences(reasons: readonly string[]): string {
  return clean(reasons)
    .map((reason) => (SENTENCE_END.test(reason) ? reason : `${reason}.`))
    .join(' ');
}

/** Reasons inside a parenthesis or after a colon: clauses separated by semicolons, no full stops. */
export function reasonClauses(reasons: readonly string[]): string {
  return clean(reasons)
    .map((reason) => reason.replace(/\.+$/, ''))
    .join('; ');
}

function clean(reasons: readonly string[]): string[] {
  return reasons.map((reason) => reason.trim()).filter((reason) => reason !== '');
}

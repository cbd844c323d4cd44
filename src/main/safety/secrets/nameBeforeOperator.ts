/**
 * Whether a name stands before an assignment operator: what
 * `/[:=](?<=(?<![A-Za-z0-9_.])[A-Za-z_][A-Za-z0-9_.-]{0,80}["']?[ \t]*(?:[?+.]|\|\|)?[:=])/y`
 * says at the operator, without a regex (its lookbehind cost more than the rest of a candidate's
 * checks). The name may be quoted (JSON), followed by blanks, and the operator compound (`?=`
 * `+=` `.=` `||=`).
 */

/** Characters of a name after its first (letters, digits, `_ . -`) by character code, below 128. */
const NAME_BODY = Uint8Array.from({ length: 128 }, (_, c) => Number((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 46 || c === 45));
const isNameBody = (c: number): boolean => c < 128 && NAME_BODY[c] === 1; // before the text, c is NaN
const isNameStart = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
/** Characters a name may not follow (it would be part of a longer word): letters, digits, `_ .` (a `-` may stand before it). */
const continuesName = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 46;
const isBlank = (c: number): boolean => c === 32 || c === 9;

/** The longest name: a first character and 80 more. */
const MAX_NAME = 81;

/** Whether a name ends at `end` (after which blanks, maybe after its closing quote, run to `end`). */
function nameEndsAt(text: string, end: number): boolean {
  let p = end;
  while (p > 0 && isBlank(text.charCodeAt(p - 1))) p--;
  const q = text.charCodeAt(p - 1);
  if (q === 34 || q === 39) p--;
  // Any start s with text[s] a name's first character, text[s + 1, p) name characters, at most 81 in all, and no name character before s.
  for (let s = p - 1; s >= 0 && s >= p - MAX_NAME; s--) {
    const c = text.charCodeAt(s);
    if (!isNameBody(c)) return false;
    if (isNameStart(c) && (s === 0 || !continuesName(text.charCodeAt(s - 1)))) return true;
  }
  return false;
}

/** Whether the `:` or `=` at `at` follows a name (see above), directly or as the last character of `?=` `+=` `.=` `||=`. */
export function nameThenOperator(text: string, at: number): boolean {
  const c = text.charCodeAt(at);
  if (c !== 58 && c !== 61) return false;
  if (nameEndsAt(text, at)) return true;
  const before = text.charCodeAt(at - 1);
  if ((before === 63 || before === 43 || before === 46) && nameEndsAt(text, at - 1)) return true;
  return before === 124 && text.charCodeAt(at - 2) === 124 && nameEndsAt(text, at - 2);
}

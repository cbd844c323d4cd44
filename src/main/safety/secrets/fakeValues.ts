/**
 * Shapes of values people type by hand as stand-ins for a secret: a keyboard run (`abcdefgh`,
 * `123456789`, `klmnopqrstuvwx`), a short unit repeated (`123123123123`, `1234-1234-1234`), one
 * character throughout or nearly (`AGE-SECRET-KEY-1QQQ…`, `xoxp-0000…`). A random token of any length
 * holds none of them: six characters in a row that each follow the one before come by chance
 * about once in 62⁵ places.
 */

/** The shortest run of consecutive characters (`abcdef`, `456789`) that marks a value as typed by hand. */
export const SEQUENCE_RUN = 6;

/** Whether `v` holds `min` or more letters or digits in a row each one after the one before (`abcdef`, `3456789`), in either case. */
export function holdsSequence(v: string, min = SEQUENCE_RUN): boolean {
  let run = 1;
  let previous = -2;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i) | 0x20; // digits are unchanged, letters folded
    const alnum = (c >= 48 && c <= 57) || (c >= 97 && c <= 122);
    run = alnum && c === previous + 1 ? run + 1 : 1;
    if (run >= min) return true;
    previous = alnum ? c : -2;
  }
  return false;
}

/** Whether the first `n` characters of `alnums` are a unit of 2 to 4 repeated three times or more. */
function repeatsAUnit(n: number): boolean {
  for (let unit = 2; unit <= 4 && n >= unit * 3; unit++) {
    let same = true;
    for (let i = unit; i < n && same; i++) same = alnums[i] === alnums[i - unit];
    if (same) return true;
  }
  return false;
}

/** Whether the letters and digits of `v` are a unit of 2 to 4 characters repeated three times or more, with nothing else (`123123123`, `1234-1234-1234`, `abab…`). */
export function isRepeatedUnit(v: string): boolean {
  // The letters and digits, in a buffer kept between calls.
  let n = 0;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) {
      if (n === alnums.length) return false; // longer than any value typed by hand
      alnums[n++] = c;
    }
  }
  return repeatsAUnit(n);
}
const alnums = new Uint16Array(512);

/**
 * Whether three quarters or more of the letters and digits of `v` stand in runs of four or more
 * of one character: `QQQQ…`, `0000…0TUVWXYZ`, `5555555dAAAAA7777777…aaaaaaaaaaaaaa`. A random
 * token has almost none; `xoxa-2-511111111-3111111111…-e039d0…` (59%) is still a token.
 */
export function isMostlyRuns(v: string): boolean {
  let total = 0;
  let inRuns = 0;
  let run = 0;
  let previous = -1;
  for (let i = 0; i <= v.length; i++) {
    const c = i < v.length ? v.charCodeAt(i) : -1;
    const alnum = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
    if (alnum && c === previous) {
      run++;
    } else {
      if (run >= 4) inRuns += run;
      run = alnum ? 1 : 0;
    }
    if (alnum) total++;
    if (alnum || c === -1) previous = c;
  }
  return total > 0 && inRuns >= 0.75 * total;
}

/**
 * Whether the letters and digits of `token` from `from` on (a vendor token's body) were typed by
 * hand: none; six x's in a row (either case); `isMostlyRuns`; `isRepeatedUnit`; ending in
 * `EXAMPLE` (AWS's documentation keys). One pass without a copy: every token found runs it.
 */
export function isTypedTokenBody(token: string, from: number): boolean {
  let n = 0;
  let overflow = false;
  let run = 0;
  let previous = -1;
  let inRuns = 0;
  let xs = 0;
  for (let i = from; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122))) continue;
    if (n < alnums.length) alnums[n] = c;
    else overflow = true;
    n++;
    xs = c === 120 || c === 88 ? xs + 1 : 0;
    if (xs >= 6) return true;
    if (c === previous) {
      run++;
    } else {
      if (run >= 4) inRuns += run;
      run = 1;
      previous = c;
    }
  }
  if (run >= 4) inRuns += run;
  if (n === 0 || inRuns >= 0.75 * n) return true;
  if (overflow) return false;
  if (n >= 7 && endsWithExample(n)) return true;
  return repeatsAUnit(n);
}

const EXAMPLE = 'example';
function endsWithExample(n: number): boolean {
  for (let k = 0; k < EXAMPLE.length; k++) if (((alnums[n - EXAMPLE.length + k] as number) | 0x20) !== EXAMPLE.charCodeAt(k)) return false;
  return true;
}

/**
 * Words that default and documentation passwords are made of (`rootpasswd`, `CleartextPassword1`,
 * `admin123`, `test:test` halves): a value of nothing but these, and a few digits after them, is a
 * stand-in that protects nothing. `hunter2` is not among them: a person's password may be a word; nor
 * are `abc` or `foo`, which tests and examples write for a short secret.
 */
const STOCK_WORDS = new Set([
  'pass', 'passwd', 'password', 'pwd', 'secret', 'root', 'admin', 'administrator', 'user', 'username', 'test', 'testing', 'demo',
  'default', 'example', 'sample', 'cleartext', 'plaintext', 'changeme', 'my', 'db', 'dev', 'local', 'guest', 'qwerty', 'letmein',
  'welcome', 'hello', 'world', 'dummy', 'fake', 'super', 'token', 'key', 'api', 'mysql', 'postgres', 'redis', 'app', 'new', 'old',
  'temp', 'tmp', 'word',
]);
/** STOCK_WORDS by their first letter (a = 0 … z = 25). */
const STOCK_WORDS_BY_LETTER: string[][] = Array.from({ length: 26 }, (_, l) => [...STOCK_WORDS].filter((w) => w.charCodeAt(0) - 97 === l));
const LONGEST_STOCK_VALUE = 28;

const isLetter = (c: number): boolean => (c | 0x20) >= 97 && (c | 0x20) <= 122;
const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isJoiner = (c: number): boolean => c === 45 || c === 95 || c === 46; // - _ .

/**
 * Whether `v` is made of STOCK_WORDS alone (any case, joined or with one `-`, `_` or `.` between
 * them), maybe ending in up to four digits (`rootpasswd`, `Admin-123`). A word break over the
 * letters, without a copy: the positions a run of stock words reaches are bits of one number.
 */
export function isStockWords(v: string): boolean {
  if (v.length > LONGEST_STOCK_VALUE || v.length === 0) return false;
  let end = v.length;
  while (end > 0 && v.length - end < 4 && isDigit(v.charCodeAt(end - 1))) end--;
  if (end > 0 && isDigit(v.charCodeAt(end - 1))) return false; // five digits or more
  if (end > 0 && isJoiner(v.charCodeAt(end - 1))) end--; // `admin-123`, `admin-`
  if (end === 0 || !isLetter(v.charCodeAt(0))) return false;
  let reached = 1; // bit i: v[0, i) is stock words (and joiners between them)
  for (let i = 0; i < end; i++) {
    if ((reached & (1 << i)) === 0) continue;
    const c = v.charCodeAt(i);
    if (isJoiner(c)) {
      // A joiner stands between two words only.
      if (i > 0 && isLetter(v.charCodeAt(i - 1)) && i + 1 < end && isLetter(v.charCodeAt(i + 1))) reached |= 1 << (i + 1);
      continue;
    }
    if (!isLetter(c)) return false;
    for (const word of STOCK_WORDS_BY_LETTER[(c | 0x20) - 97] as string[]) {
      if (i + word.length <= end && startsWithFolded(v, i, word)) reached |= 1 << (i + word.length);
    }
  }
  return (reached & (1 << end)) !== 0;
}

/** Whether `v` holds the lower-case `word` at `at`, in any case. */
function startsWithFolded(v: string, at: number, word: string): boolean {
  for (let k = 0; k < word.length; k++) if ((v.charCodeAt(at + k) | 0x20) !== word.charCodeAt(k)) return false;
  return true;
}

/**
 * Whether half or more of `v` is three or more capitalized words run together (`AgencyIdentificationCode…`):
 * a type, a field or a message, not an issued token. In a random token a capital followed by three
 * lower-case letters comes once in about thirty places, three in a row once in tens of thousands,
 * and never covering half of it.
 */
export function isMostlyCapitalizedWords(v: string): boolean {
  let best = 0;
  let words = 0;
  let span = 0;
  let i = 0;
  while (i < v.length) {
    // Half is out of reach even if the run in hand went on to the end: a random token stops about halfway.
    if ((span + v.length - i) * 2 < v.length) return false;
    const c = v.charCodeAt(i);
    let end = i + 1;
    if (c >= 65 && c <= 90) while (end < v.length && v.charCodeAt(end) >= 97 && v.charCodeAt(end) <= 122) end++;
    if (end - i >= 4) {
      words++;
      span += end - i;
      if (words >= 3 && span > best) best = span;
      if (best * 2 >= v.length) return true;
    } else {
      words = 0;
      span = 0;
    }
    i = end;
  }
  return best * 2 >= v.length;
}

/** Whether `v` reads as a sentence: six words or more between single blanks, each of letters alone (maybe hyphenated, maybe before a comma or stop). A secret among them is no word. */
export function isProse(v: string): boolean {
  if (v.indexOf(' ') === -1) return false;
  const words = v.split(' ');
  return words.length >= 6 && words.every((word) => /^[A-Za-z][a-z]*(?:-[A-Za-z][a-z]*)*[,.;:]?$/.test(word));
}

/**
 * The name before an assignment operator (assignments.ts): where it starts, the letters it holds
 * and its hash (for the name table, nameInfo.ts), taken in one walk back over it; and a type
 * written between a name and its `=` (`var apiToken string = …`).
 */

/** The longest name: a first character and 80 more. */
export const MAX_NAME = 81;

export const isAlnum = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
/** Characters a name holds (letters, digits, `_ . -`) by character code, below 128: a table, as a chain of comparisons mispredicts on every kind of character. */
const NAME_CHARACTER = Uint8Array.from({ length: 128 }, (_, c) => Number(isAlnum(c) || c === 95 || c === 46 || c === 45));
export const isNameChar = (c: number): boolean => c < 128 && NAME_CHARACTER[c] === 1; // past the end, c is NaN
const isNameStart = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
/** Characters that may not stand before a name: it would be part of a longer word. */
const continuesName = (c: number): boolean => isAlnum(c) || c === 95 || c === 46 || c === 36; // _ . $
/** A PHP or shell variable's `$` before a name, not `${NAME:=…}`, `$$` or `a$b`. */
const variableSigilAt = (text: string, at: number): boolean =>
  text.charCodeAt(at) === 36 && (at === 0 || !(continuesName(text.charCodeAt(at - 1)) || text.charCodeAt(at - 1) === 123));

/** Where the name ending at `end` starts: the earliest start a name may have in the run of name characters before `end`. */
function nameStartBefore(text: string, end: number): number {
  let start = end;
  while (start > 0 && end - start < MAX_NAME && isNameChar(text.charCodeAt(start - 1))) start--;
  return nameStartFrom(text, start, end);
}

/** The first place from `start` (the start of a run of name characters) where a name may start; `end` if none. */
export function nameStartFrom(text: string, start: number, end: number): number {
  let at = start;
  while (at < end && !(isNameStart(text.charCodeAt(at)) && (at === 0 || !continuesName(text.charCodeAt(at - 1)) || variableSigilAt(text, at - 1)))) at++;
  return at;
}

/** A name's letters (bits, case folded: a = 1 …) and its hash as infoForNameAt takes it: set by nameBack and lettersAndHash (an object kept, not one made per name). */
export const walkedName = { letters: 0, hash: 0 };

/**
 * Walks back from `end` over the characters a name may hold (at most MAX_NAME), taking their
 * letters and hash on the way (the hash `(Math.imul(hash, 31) + c) | 0` of the characters in
 * order, summed from the last: c × 31^k); returns where the walk stopped.
 */
export function nameBack(text: string, end: number): number {
  let start = end;
  let letters = 0;
  let hash = 0;
  let power = 1;
  while (start > 0 && end - start < MAX_NAME) {
    const c = text.charCodeAt(start - 1);
    if (!isNameChar(c)) break;
    start--;
    hash = (hash + Math.imul(c, power)) | 0;
    power = Math.imul(power, 31);
    const folded = c | 0x20;
    if (folded >= 97 && folded <= 122) letters |= 1 << (folded - 97);
  }
  walkedName.letters = letters;
  walkedName.hash = hash;
  return start;
}

/** The letters and hash of text[start, end) (see `walkedName`). */
export function lettersAndHash(text: string, start: number, end: number): void {
  let letters = 0;
  let hash = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    hash = (Math.imul(hash, 31) + c) | 0; // as infoForNameAt takes it (written out: a call into nameInfo.ts for each character made the scan 1.5x as slow loaded through jiti)
    const folded = c | 0x20;
    if (folded >= 97 && folded <= 122) letters |= 1 << (folded - 97);
  }
  walkedName.letters = letters;
  walkedName.hash = hash;
}

/** Types written between a name and its `=`: Go `var apiToken string = "…"`, Kotlin `val apiKey: String = "…"`, Python `password: str = "…"`. */
const TYPE_WORDS: readonly string[] = ['string', 'String', 'str', 'byte', 'bytes', 'SecretStr', 'CharSequence', 'text'];
/** The keywords that find them, matched in any case: `str` finds `string` and `String` (the same place), `secret` finds `SecretStr`, `byte` finds `bytes`. */
export const TYPE_KEYWORDS = ['str', 'byte', 'CharSequence', 'text'];
/** 1 for the first characters of TYPE_WORDS, by character code below 128. */
const TYPE_FIRST = Uint8Array.from({ length: 128 }, (_, c) => Number(TYPE_WORDS.some((word) => word.charCodeAt(0) === c)));
/** Whether text[start, end) is one of TYPE_WORDS (compared in place: most names are no type, and need no copy). */
export function isTypeWordAt(text: string, start: number, end: number): boolean {
  const first = text.charCodeAt(start);
  if (!(first < 128 && TYPE_FIRST[first] === 1)) return false; // most names start otherwise
  for (const word of TYPE_WORDS) if (word.length === end - start && text.startsWith(word, start)) return true;
  return false;
}

/** The name before a type word that ends at `typeEnd`, as [start, end], or undefined. */
export function nameBeforeType(text: string, typeStart: number): [number, number] | undefined {
  let k = typeStart;
  if (text.slice(k - 2, k) === '[]') k -= 2;
  const blanksEnd = k;
  while (k > 0 && (text.charCodeAt(k - 1) === 32 || text.charCodeAt(k - 1) === 9)) k--;
  if (text[k - 1] === ':') {
    k--;
    while (k > 0 && (text.charCodeAt(k - 1) === 32 || text.charCodeAt(k - 1) === 9)) k--;
  } else if (k === blanksEnd) {
    return undefined;
  }
  const start = nameStartBefore(text, k);
  return start < k ? [start, k] : undefined;
}

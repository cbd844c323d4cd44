/** Does a value look random? For values whose name does not say they are secret. */

/** Counts of ASCII characters, kept between calls (each call sets back the ones it counted). */
const asciiCounts = new Int32Array(128);
/** The ASCII characters of a value in order of first appearance: the sum is taken in that order, as over a Map's entries. */
const asciiOrder = new Int32Array(128);

/** Bits per character of `value`'s own character distribution. */
export function shannonEntropy(value: string): number {
  let distinct = 0;
  let i = 0;
  for (; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 128) break;
    if (asciiCounts[c] === 0) asciiOrder[distinct++] = c;
    asciiCounts[c] = (asciiCounts[c] as number) + 1;
  }
  if (i < value.length) {
    for (let k = 0; k < distinct; k++) asciiCounts[asciiOrder[k] as number] = 0;
    return entropyOfCharacters(value);
  }
  let entropy = 0;
  for (let k = 0; k < distinct; k++) {
    const c = asciiOrder[k] as number;
    const p = (asciiCounts[c] as number) / value.length;
    asciiCounts[c] = 0;
    entropy -= p * Math.log2(p);
  }
  return entropy;
}

/** shannonEntropy of any text: by code point, a surrogate pair counting as one character. */
function entropyOfCharacters(value: string): number {
  const counts = new Map<string, number>();
  let length = 0;
  for (const ch of value) {
    counts.set(ch, (counts.get(ch) ?? 0) + 1);
    length++;
  }
  let entropy = 0;
  for (const n of counts.values()) {
    const p = n / length;
    entropy -= p * Math.log2(p);
  }
  return entropy;
}

/** How often the kind of character (lower, upper, digit, other) changes along the value: about 0.6 per character in random base62, rarely 0.3 in words. */
function classChanges(value: string): number {
  const kindOf = (c: number): number => (c >= 97 && c <= 122 ? 0 : c >= 65 && c <= 90 ? 1 : c >= 48 && c <= 57 ? 2 : 3);
  let changes = 0;
  let previous = kindOf(value.charCodeAt(0));
  for (let i = 1; i < value.length; i++) {
    const kind = kindOf(value.charCodeAt(i));
    if (kind !== previous) changes++;
    previous = kind;
  }
  return changes;
}

/** camelCase or snake_case words: every run of letters but one is three letters or longer. */
function isWords(value: string): boolean {
  const segments = value.match(/[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+|[^A-Za-z\d]+/g) ?? [];
  const short = segments.filter((s) => /^[A-Za-z]{1,2}$/.test(s)).length;
  return short <= 1 && value.length / segments.length >= 3.5;
}

/** Whether a base64 or base64url value decodes to readable text rather than random bytes. */
function isEncodedText(value: string): boolean {
  if (value.length % 4 === 1) return false;
  const decoded = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (decoded.length < 12) return false;
  let printable = 0;
  for (const byte of decoded) if ((byte >= 0x20 && byte < 0x7f) || byte === 0x0a || byte === 0x09) printable++;
  return printable >= 0.95 * decoded.length;
}

/**
 * Whether a base64 value under an `auth` name holds credentials: it decodes to `user:password`
 * (HTTP Basic credentials, Docker and npm `auth`), or starts as `user:` and is long and random
 * enough to be the rest of one (a value cut or garbled in a log).
 */
export function isBase64Credentials(value: string): boolean {
  if (!/^[A-Za-z0-9+/]{8,}={0,2}$/.test(value)) return false;
  const decoded = Buffer.from(value, 'base64').toString('latin1');
  if (/^[A-Za-z0-9._@+-]{1,128}:[\x21-\x7e]{1,256}$/.test(decoded)) return true;
  return value.length >= 24 && /^[A-Za-z0-9._@+-]{1,128}:/.test(decoded) && shannonEntropy(value) >= 4;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A random-looking token: 20–128 characters of base64url, mixed case and digits, high
 * entropy, not hex (hashes and ids are hex), not a UUID, not words joined by `_` or `-`.
 */
export function looksHighEntropy(value: string): boolean {
  if (value.length < 20 || value.length > 128) return false;
  // One pass: base64url only, not all hex, two digits, two upper- and two lower-case letters at least.
  let digits = 0;
  let upper = 0;
  let lower = 0;
  let hex = true;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 48 && c <= 57) digits++;
    else if (c >= 65 && c <= 90) {
      upper++;
      if (c > 70) hex = false;
    } else if (c >= 97 && c <= 122) {
      lower++;
      if (c > 102) hex = false;
    } else if (c === 95 || c === 45) {
      hex = false;
    } else {
      return false;
    }
  }
  if (hex || (value.length === 36 && UUID.test(value))) return false;
  if (digits < 2 || upper < 2 || lower < 2) return false;
  if (/^[A-Za-z]+(?:[_-][A-Za-z0-9]+)+$/.test(value) && !/[A-Za-z0-9]{16}/.test(value)) return false; // snake/kebab words
  // Every test must pass; the cheap ones first.
  if (shannonEntropy(value) < 0.82 * Math.log2(Math.min(value.length, 64))) return false;
  if (classChanges(value) < 0.3 * value.length || isWords(value)) return false; // sha256WithRSAEncryption, decodeBase64WithBufferFrom
  return !isEncodedText(value); // base64 of ordinary data: a JSON cursor, a file name
}

/**
 * Whether a value under a name that only hints at a secret (`APP_KEY`, `signing.key`) looks
 * like key material rather than a setting: long, no blanks, a digit, several kinds of
 * character, and no `:` (namespaced ids like `user:42:profile`) except a `base64:` prefix.
 */
export function looksLikeKeyMaterial(value: string): boolean {
  const v = value.startsWith('base64:') ? value.slice(7) : value;
  if (v.length < 16 || v.length > 4096) return false;
  // One pass: no blank or `:`, a digit, two kinds of character at least.
  let lower = 0;
  let upper = 0;
  let digit = 0;
  let other = 0;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c >= 97 && c <= 122) lower = 1;
    else if (c >= 65 && c <= 90) upper = 1;
    else if (c >= 48 && c <= 57) digit = 1;
    else if (c === 32 || c === 58 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x2028 || c === 0x2029 || c === 0xfeff || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x202f || c === 0x205f || c === 0x3000) return false;
    else other = 1;
  }
  if (digit === 0 || lower + upper + digit + other < 2) return false;
  if (shannonEntropy(v) < 3) return false;
  // Words and a version (`SalesResults-1.2`, `report_v2.10`), or a dotted name (`jetbrains.mps.v8_elimination`, the `key=` of a settings entry): a name, not a key.
  return !/^[A-Za-z][\w-]*(?:\.[A-Za-z][\w-]*)+$/.test(v) && !/^[A-Za-z]+(?:[-_][A-Za-z]+)*[-_.]?v?\d+(?:\.\d+)+$/.test(v);
}

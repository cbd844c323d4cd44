/**
 * Secrets found by the name they are assigned to: `KEY=value` lines, `name: value` in YAML and
 * HTTP headers, `"name": "value"` in JSON, `'name' => 'value'`, `name := value`, the `value` of
 * a `{"name": "DB_PASSWORD", "value": …}` pair, and long random values in assignment position
 * under any name that does not say "hash" or "id".
 *
 * The name decides: a name that says secret (password, token, secret, api key …) redacts any
 * value that is not a placeholder, a reference or code; a name that only ends in "key" needs
 * key material; any other name needs a high-entropy token.
 */
import { looksHighEntropy } from './entropy';
import { MAX_NAME, TYPE_KEYWORDS, isAlnum, isNameChar, isTypeWordAt, lettersAndHash, nameBack, nameBeforeType, nameStartFrom, walkedName } from './assignmentNames';
import { redacted, type Replacement } from './redaction';
import { infoForName, infoForNameAt, ruleFor, type NameInfo } from './nameInfo';
import type { KeywordHits, Locator } from './keywordScan';
import { letterSetsOf, mayHoldOneOf } from './letterSets';
import { nameThenOperator } from './nameBeforeOperator';
import { LineEnds, blockBelow, isTypeAnnotation, lineStartOf, lineStartWithin } from './textSearch';
import { isMostlyCapitalizedWords, isProse } from './fakeValues';
import { acceptsSecretValue, splitQuotes } from './valueJudgement';
import { ValueReads } from './valueReads';

/** The name of a `value` key's pair: `{"name": "DB_PASSWORD", "value": …}`, `- name: X⏎  value: …`, or `"db_password": { … "value": …`. */
const PAIR_NAME = /["']?\b(?:name|Name|NAME|key|Key|KEY)["']?[ \t]*[:=][ \t]*["']?([^"'\s,}]{1,120})/g;
const PARENT_KEY = /["']([A-Za-z0-9_.-]{1,80})["'][ \t]*:[ \t]*\{[^{}]*$/;
const PAIR_WINDOW = 300;

function pairedName(text: string, valueKeyAt: number): string | undefined {
  const window = text.slice(Math.max(0, valueKeyAt - PAIR_WINDOW), valueKeyAt);
  // Only a pair after the last `}` counts; no match of PAIR_NAME holds a `}`, so the search starts past it.
  PAIR_NAME.lastIndex = window.lastIndexOf('}') + 1;
  let name: string | undefined;
  for (let m = PAIR_NAME.exec(window); m !== null; m = PAIR_NAME.exec(window)) name = m[1];
  return name ?? PARENT_KEY.exec(window)?.[1];
}

/** How a value under a name (`info`, at `nameAt`) is redacted, or undefined when the name and value say it is not a secret. */
function judge(text: string, nameAt: number, info: NameInfo, inner: string, literal: boolean, bareIdentifierIsCode = false): string | undefined {
  let secrecy = info.secrecy;
  let kind = info.kind;
  // The look back for a pair's name is the slow part: only for a value that could be a secret.
  if (info.pairsWithName && acceptsSecretValue('secret', inner, literal, bareIdentifierIsCode)) {
    const paired = pairedName(text, nameAt);
    if (paired) {
      const pairedInfo = infoForName(paired);
      secrecy = pairedInfo.secrecy;
      kind = pairedInfo.kind;
      if (!secrecy && pairedInfo.ordinary) return undefined; // `name="csrf-token" content="…"`
    }
  }
  // Lower-case words joined by `-` or `_` under a token, key or secret name (`secretKey: api-key`, `token: db_creds`) name the secret elsewhere (an ExternalSecret's reference, a vault entry), and so does one short word (`secretKey: foo`); a password may be words, and an environment variable holds a value.
  if (secrecy && kind !== 'password' && !info.envStyle && /^[a-z]+(?:[-_][a-z]+)+$|^[a-z]{1,5}$/.test(inner)) return undefined;
  if (secrecy) {
    if (!acceptsSecretValue(secrecy, inner, literal, bareIdentifierIsCode)) return undefined;
    // So do capitalized words run together (`clm97053:AgencyIdentificationCodeContentType`), a type or a field; a password may be words. (The dearer test, after the one most values fail.)
    // And a sentence is prose (`Secrets: a value whose id has the wrong length…` in a commit message); a passphrase may be one.
    return kind !== 'password' && (isMostlyCapitalizedWords(inner) || isProse(inner)) ? undefined : kind;
  }
  if (!info.ordinary && looksHighEntropy(inner)) return 'high-entropy';
  return undefined;
}

/** What may stand before a name that starts a line: indentation, a list bullet, `export`, `set -x`'s `+`. */
const LINE_START_PREFIX = /^[ \t]*(?:[-+*>][ \t]+)?(?:(?:export|declare[ \t]+-x|setenv|set|readonly|local)[ \t]+)?:?$/;
/** The longest value read (a bounded search, so that no read costs more). */
const MAX_VALUE = 4096;
const QUOTED_VALUE = /"(?:\\.|[^"\\\r\n]){0,4096}"|'(?:\\.|[^'\\\r\n]){0,4096}'/y;
/** Mid-line: up to a blank, a quote or a shell/URL/list separator. */
const WORD_VALUE = /[^\s'"&;,|<>()[\]{}`]{1,4096}/y;
/** `NAME=value` starting a line (env dumps, .env, properties): up to the next blank. */
const RUN_VALUE = /\S{1,4096}/y;
/** `name: value` or `name = value` starting a line (YAML, INI, headers): the rest of the line. */
const REST_VALUE = /[^\r\n]{1,4096}/y;
/** A token for the entropy rule: 20–128 characters of base64url, ending where a value ends. */
const TOKEN_VALUE = /"[A-Za-z0-9_-]{20,128}"|'[A-Za-z0-9_-]{20,128}'|[A-Za-z0-9_-]{20,128}(?=$|[\s"'`,;&)\]}>|])/y;

/** The characters the reads of one value have examined (past a match, or as far as a failed search may look), and where its matches end. */
const lastRead = { examined: 0, matchedUntil: 0 };

/** `failedLooks`: how far the search may look when it fails (a quoted value: to its bound). */
function stickyMatch(re: RegExp, text: string, at: number, failedLooks = 1): string | undefined {
  re.lastIndex = at;
  // `test` and a slice: no match array made for every value read.
  const value = re.test(text) ? text.slice(at, re.lastIndex) : undefined;
  if (value === undefined) {
    lastRead.examined += Math.min(failedLooks, text.length - at);
  } else {
    lastRead.examined += value.length + 1;
    lastRead.matchedUntil = Math.max(lastRead.matchedUntil, at + value.length);
  }
  return value;
}

/**
 * The length of a quoted value of at most 2 characters at `at` (no `\\`, quotes included), as
 * QUOTED_VALUE reads it, or 0 when there is none.
 */
function shortQuotedValueLength(text: string, at: number): number {
  const quote = text.charCodeAt(at);
  if (quote !== 34 && quote !== 39) return 0;
  for (let i = at + 1; i <= at + 3; i++) {
    const c = text.charCodeAt(i);
    if (c === quote) return i - at + 1;
    if (c === 92 || c === 10 || c === 13 || c !== c) return 0; // past the end, c is NaN
  }
  return 0;
}

/** The value after an operator, as written (quotes included), or undefined when there is none to judge. */
function valueAfter(text: string, at: number, lineEnd: number, startsLine: boolean, op: string, blanks: boolean): string | undefined {
  const ch = text[at];
  if (ch === '"' || ch === "'") {
    const quoted = stickyMatch(QUOTED_VALUE, text, at, MAX_VALUE + 2);
    if (quoted) return quoted;
  }
  if (startsLine) {
    // `KEY=<your token>`: a placeholder with a blank in it.
    if (op === '=' && !blanks && ch !== '<') return stickyMatch(RUN_VALUE, text, at);
    const rest = stickyMatch(REST_VALUE, text, at)?.slice(0, lineEnd - at);
    return (rest?.includes('#') ? rest.replace(/[ \t]+#.*$/, '') : rest)?.trimEnd() || undefined;
  }
  // Code with blanks around `=` counts only with a quoted value: `password = input` is not a secret.
  if (op === '=' && blanks) return undefined;
  return stickyMatch(WORD_VALUE, text, at);
}

/**
 * The letters of every word that can make a name worth judging whatever its value (pass, pwd,
 * secret, token, cred, key, auth, salt, value): a name holding none of these sets is not
 * looked up unless a long token follows it. Most `name:` in output is `Date:`, `https:` ….
 */
const NAMED_LETTER_SETS = letterSetsOf(['pas', 'pwd', 'secret', 'token', 'cred', 'key', 'auth', 'salt', 'value']);

/** Base64url characters (letters, digits, `_`, `-`) by character code, below 128. */
const TOKEN_CHARACTER = Uint8Array.from({ length: 128 }, (_, c) => Number(isAlnum(c) || c === 95 || c === 45));

/** Whether at least 20 characters of base64url (maybe after a quote) start at `at`: a value the entropy rule would look at. */
function longTokenAt(text: string, at: number): boolean {
  let i = at;
  const q = text.charCodeAt(i);
  if (q === 34 || q === 39) i++;
  const end = i + 20;
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    if (!(c < 128) || TOKEN_CHARACTER[c] === 0) return false; // past the end, c is NaN
  }
  return true;
}

/**
 * What the keyword pass finds for this scan: the words a secret's name holds (pass, pwd,
 * secret, token, cred, key, auth, salt) or that name their pair (value, content), and the
 * type words written between a name and its `=`. The operators a long token follows are
 * found from the pass's token runs.
 */
export const ASSIGNMENT_KEYWORDS: readonly string[] = ['pass', 'pwd', 'secret', 'token', 'cred', 'key', 'auth', 'salt', 'value', 'content', ...TYPE_KEYWORDS];

const isBlank = (c: number): boolean => c === 32 || c === 9;
/** What follows a variable passed on in code: `f(password=pw,` `(pw)` `[pw]` `pw;` (after `=`) … */
const endsCodeArgument = (c: number): boolean => c === 44 || c === 59 || c === 41 || c === 40 || c === 91; // , ; ) ( [
/** … and `{password:e}` (after `:`). */
const endsCodeMember = (c: number): boolean => endsCodeArgument(c) || c === 125 || c === 93; // } ]

/** Where the name holding a keyword at [start, end) ends: past the rest of its characters, as far as a name may reach from `start`. */
function nameRestEnd(text: string, start: number, end: number): number {
  let i = end;
  while (i < text.length && i - start < MAX_NAME && isNameChar(text.charCodeAt(i))) i++;
  return i;
}

/**
 * The operator a name ending at `nameEnd` stands before: past its quote, blanks and a compound
 * operator's first characters. -1 when there is none.
 */
function operatorAt(text: string, nameEnd: number): number {
  let i = nameEnd;
  const q = text.charCodeAt(i);
  if (q === 34 || q === 39) i++;
  while (isBlank(text.charCodeAt(i))) i++;
  const c = text.charCodeAt(i);
  if (c === 58 || c === 61) return i;
  if ((c === 63 || c === 43 || c === 46) && text.charCodeAt(i + 1) === 61) return i + 1; // `?=` `+=` `.=`
  if (c === 124 && text.charCodeAt(i + 1) === 124 && text.charCodeAt(i + 2) === 61) return i + 2; // `||=`
  return -1;
}

/**
 * Keyword hits that place no operator, because what the operator would be looked at for is found
 * otherwise: a name secret for another keyword it holds is found from that keyword (the same
 * operator: a name is at most MAX_NAME long), and a long token after an operator from the token.
 * - `auth` with a letter or digit after it in the same word (`Author:`, `Authorization:`,
 *   `oauth2`, `AUTHOR`): of the words that hold it only `auth` and `masterauth` make a name
 *   secret, and they end there (`masterauthToken` splits after `auth`: that one places one).
 * - A type word's keyword (`str`, `byte`, `text`, `CharSequence`) inside a longer word
 *   (`upstream`, `context`, `megabytes`): it finds the `=` after a type (`apiToken string = …`),
 *   and a type word starts its name (`SecretStr` is found from `secret`).
 * Most of these keywords in output are such hits.
 */
function placesNoOperator(text: string, start: number, end: number): boolean {
  const length = end - start;
  const first = text.charCodeAt(start) | 0x20;
  if ((length === 3 && first === 115) || (length === 4 && (first === 98 || first === 116)) || length === 12) return start > 0 && continuesWord(text.charCodeAt(start - 1));
  if (length !== 4 || first !== 97) return false;
  const after = text.charCodeAt(end);
  const camelBoundary = text.charCodeAt(end - 1) === 104 && after >= 65 && after <= 90; // `h` then a capital: a new word
  return isAlnum(after) && !camelBoundary;
}
/** Characters before which no name starts (a `$` may stand before one). */
const continuesWord = (c: number): boolean => isAlnum(c) || c === 95 || c === 46;

/**
 * The operators worth a look: those after a name holding one of the keywords (or a type word),
 * and the `:` and `=` that a long token follows (after an optional `=` or `>` of `:=` and `=>`,
 * blanks and a quote: found back from the token). Every other `:` and `=` in output (`12:30`,
 * `https:`, `a=b`) is passed over without being looked at.
 */
export const ASSIGNMENT_OPERATORS: Locator = {
  atKeyword: (text, start, end, place) => {
    if (placesNoOperator(text, start, end)) return;
    const op = operatorAt(text, nameRestEnd(text, start, end));
    if (op >= 0) place(op);
  },
  atTokenRuns: (text, runStarts, count, place) => {
    for (let r = 0; r < count; r++) {
      let v = runStarts[r] as number;
      const q = text.charCodeAt(v - 1);
      if (q === 34 || q === 39) v--;
      while (isBlank(text.charCodeAt(v - 1))) v--;
      const c = text.charCodeAt(v - 1);
      const before = text.charCodeAt(v - 2);
      if ((c === 61 || c === 62) && (before === 58 || before === 61)) place(v - 2);
      if (c === 58 || c === 61) place(v - 1);
    }
  },
};

/**
 * `name = value` and its kin, at the operators ASSIGNMENT_OPERATORS finds: more than the rules
 * below can use, never fewer, so the result is what a look at every operator gives.
 */
export function scanAssignments(text: string, operators: KeywordHits): Replacement[] {
  const out: Replacement[] = [];
  const lineEnds = new LineEnds(text);
  const reads = new ValueReads();
  let resumeAt = 0;
  for (const at of operators.starts) {
    if (at < resumeAt) continue;
    const opCode = text.charCodeAt(at);
    const second = text.charCodeAt(at + 1);
    if (opCode === 61 && second === 61) {
      if (nameThenOperator(text, at)) resumeAt = at + 2; // `==`, `===`: a comparison
      continue;
    }
    // A compound operator: Makefile `?=` `+=`, PHP `.=`, Ruby `||=`.
    let opStart = at;
    if (opCode === 61) {
      const p = text.charCodeAt(at - 1);
      if (p === 63 || p === 43 || p === 46) opStart = at - 1;
      else if (p === 124 && text.charCodeAt(at - 2) === 124) opStart = at - 2;
    }
    const compound = opStart < at;
    let nameEnd = opStart;
    while (nameEnd > 0 && isBlank(text.charCodeAt(nameEnd - 1))) nameEnd--;
    const q = text.charCodeAt(nameEnd - 1);
    const keyQuote = q === 34 || q === 39 ? q : 0;
    const keyQuoteLength = keyQuote === 0 ? 0 : 1;
    nameEnd -= keyQuoteLength;
    // The name, its letters (for NAMED_LETTER_SETS) and its hash (for infoForNameAt), in the one walk back over it, mostly.
    const walkedEnd = nameEnd;
    const earliest = nameBack(text, nameEnd);
    let nameStart = nameStartFrom(text, earliest, nameEnd);
    if (keyQuote !== 0 && text.charCodeAt(nameStart - 1) !== keyQuote) continue; // "name: not a quoted key
    if (keyQuote === 0 && nameEnd - nameStart >= 3 && nameEnd - nameStart <= 12 && isTypeWordAt(text, nameStart, nameEnd)) {
      const typed = nameBeforeType(text, nameStart);
      if (typed) [nameStart, nameEnd] = typed;
    }
    if (nameStart !== earliest || nameEnd !== walkedEnd) lettersAndHash(text, nameStart, nameEnd); // not the name walked back over
    const op = opCode === 61 ? (second === 62 ? '=>' : '=') : second === 61 ? ':=' : ':';
    let valueStart = at + op.length;
    while (isBlank(text.charCodeAt(valueStart))) valueStart++;
    // A name holding none of NAMED_LETTER_SETS is judged only with a long token after it.
    const named = mayHoldOneOf(walkedName.letters, NAMED_LETTER_SETS);
    if (!named && !longTokenAt(text, valueStart)) continue;
    const info = infoForNameAt(text, nameStart, nameEnd, walkedName.hash);
    const rule = ruleFor(info);
    if (rule === 'none' || (rule === 'entropy' && named && !longTokenAt(text, valueStart))) continue;
    // The checks above only pass candidates over; this one, dearer, comes last before the value is read.
    if (!nameThenOperator(text, at)) continue;
    // What stands between the name and the value, kept as written.
    // Blanks (or a key's closing quote) between the name and the operator, and between the operator and the value.
    const spaced = nameEnd + keyQuoteLength < opStart || at + op.length < valueStart;
    if (!reads.mayRead(valueStart)) continue;
    lastRead.examined = 0;
    lastRead.matchedUntil = valueStart;
    let raw: string | undefined;
    if (rule === 'entropy') {
      raw = stickyMatch(TOKEN_VALUE, text, valueStart, 130);
      reads.read(valueStart, lastRead.matchedUntil, lastRead.examined);
    } else {
      if (op === ':' && text.startsWith('//', valueStart)) continue; // `https://…`: a scheme
      // Makefile `NAME ?= value`, `NAME := value`, `NAME += value` start a line of their own, also where grep prefixed it.
      const makeStyle = (compound || op === ':=') && op !== '=>' && info.makeStyle;
      // `{password:"e"}` in minified code: no value of under 3 characters is redacted (below), so that one is only counted as read.
      const shortQuoted = shortQuotedValueLength(text, valueStart);
      if (shortQuoted > 0) {
        reads.read(valueStart, valueStart + shortQuoted, shortQuoted + 1);
        continue;
      }
      // The name's line (the operator's: no line break between them) starts at most 40 characters before it, after a prefix such as `export `; a quoted key's value does not start a line.
      const nearLineStart = keyQuote === 0 ? lineStartWithin(text, nameStart, 40) : -1;
      const startsLine = keyQuote === 0 && (nearLineStart === nameStart || (nearLineStart >= 0 && LINE_START_PREFIX.test(text.slice(nearLineStart, nameStart))) || makeStyle);
      // Only a value starting a line is read to the line's end.
      const lineEnd = startsLine ? lineEnds.at(at) : text.length;
      raw = valueAfter(text, valueStart, lineEnd, startsLine, op, spaced);
      reads.read(valueStart, lastRead.matchedUntil, lastRead.examined);
      // `token: |` (YAML): the value is the more indented lines below.
      if (startsLine && raw !== undefined && (raw.charCodeAt(0) === 124 || raw.charCodeAt(0) === 62) && /^[|>][-+]?\d?$/.test(raw)) {
        const block = blockBelow(text, lineEnd, nameStart - (nearLineStart >= 0 ? nearLineStart : lineStartOf(text, nameStart)));
        const firstLineEnd = block ? text.indexOf('\n', block[0]) : -1;
        const firstLine = block ? text.slice(block[0], firstLineEnd === -1 || firstLineEnd > block[1] ? block[1] : firstLineEnd).trim() : '';
        const kind = block ? judge(text, nameStart, info, firstLine, true) : undefined;
        if (block && kind) {
          const start = nameStart - keyQuoteLength;
          out.push({ start, end: block[1], text: `${text.slice(start, block[0])}${redacted(kind)}`, kind });
          resumeAt = block[1];
        }
        continue;
      }
    }
    if (!raw) continue;
    const { quote, inner } = splitQuotes(raw);
    if (keyQuote !== 0 && quote === '') continue; // a quoted key takes a quoted value: `case"TOKEN":return` is code
    // Under 3 characters (`{password:e}` in minified code, `PIN: 1`) nothing is redacted, whatever the name: a placeholder, and no random token.
    if (inner.length < 3) continue;
    const end = valueStart + raw.length;
    if (op === ':' && quote === '' && isTypeAnnotation(text, end)) continue; // `const TELEGRAM_BOT_TOKEN: PatternDetector = {`: a type, then the value
    // Where code would put a variable: `f(password=pw,`, `{password:e}`, `password = input`. Not
    // after an environment-style name: `DB_PASSWORD=hunter2,` is a value.
    const bareIdentifierIsCode = !info.envStyle && (compound || (op === '=' ? spaced || endsCodeArgument(text.charCodeAt(end)) : endsCodeMember(text.charCodeAt(end))));
    const kind = judge(text, nameStart, info, inner, quote !== '', bareIdentifierIsCode);
    if (!kind) continue;
    const start = nameStart - keyQuoteLength;
    // What stands between the name and the value is kept as written.
    out.push({ start, end, text: `${text.slice(start, valueStart)}${quote}${redacted(kind)}${quote}`, kind });
    resumeAt = end;
  }
  return out;
}

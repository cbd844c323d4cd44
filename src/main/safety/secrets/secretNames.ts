/**
 * What a name says about its value (`DB_PASSWORD`, `apiKey`, `x-auth-token`, `signing.key`),
 * and which values are not secrets whatever the name: placeholders, references, types, code.
 */
import { isRepeatedUnit, isStockWords } from './fakeValues';
import { letterSetsOf, mayHoldOneOf } from './letterSets';
import { REDACTED_PREFIX } from './redaction';

/**
 * `secret`: the name says the value is secret (password, token, secret, credential, api key …).
 * `key`: the name ends in the word "key" (`APP_KEY`, `signing.key`, a bare `key`), a weaker
 * hint: the value must also look like key material. `auth`: the name is `auth` (`.npmrc`
 * `_auth`, Docker's `"auth"`): the value must be base64 `user:password`. undefined: the name
 * says nothing.
 */
export type NameSecrecy = 'secret' | 'key' | 'auth' | undefined;

/** Words that make a name secret on their own. */
const SECRET_WORDS = new Set([
  'secret', 'secrets', 'token', 'password', 'passwd', 'pwd', 'passphrase', 'passcode', 'credential', 'credentials',
  'creds', 'apikey', 'requirepass', 'masterauth', 'salt',
]);
/** Parts of a word that make it secret (`authToken` is one word in `_authtoken`). */
const SECRET_WORD_PARTS = /password|passwd|secret|token|credential|passphrase|apikey|authkey|privatekey|accesskey/;
/** `<word> key` pairs that name key material. */
const SECRET_KEY_PAIRS = new Set(['api', 'private', 'access', 'auth', 'session', 'signing', 'encryption', 'secret', 'master', 'account', 'shared', 'client', 'license', 'app', 'service']);
/** `<word> key` pairs that name something else: database keys, cache keys, public keys … */
const ORDINARY_KEY_PAIRS = new Set([
  'public', 'pub', 'primary', 'foreign', 'sort', 'partition', 'cache', 'hash', 'range', 'routing', 'idempotency', 'dedup', 'dedupe',
  'lookup', 'index', 'row', 'column', 'map', 'hot', 'shortcut', 'translation', 'i18n', 'group', 'object', 's3', 'storage', 'upload',
  'sequence', 'composite', 'unique', 'natural', 'surrogate', 'kms', 'publishable', 'site', 'host', 'ssh', 'gpg', 'pgp', 'message',
  'event', 'config', 'setting', 'settings', 'field', 'label', 'sign', 'known', 'react', 'list', 'item', 'search',
  'dict', 'json', 'yaml', 'redis', 'queue', 'topic', 'metric', 'tag', 'sub', 'parent', 'child', 'join', 'distribution',
]);
/** Last words of names whose value is a path, an id, a size, a setting … never the secret itself. */
const ORDINARY_LAST_WORDS = new Set([
  'path', 'paths', 'file', 'files', 'dir', 'directory', 'folder', 'name', 'names', 'id', 'ids', 'type', 'types', 'uri', 'url', 'urls',
  'endpoint', 'host', 'port', 'ttl', 'seconds', 'secs', 'ms', 'minutes', 'hours', 'days', 'length', 'len', 'count', 'limit', 'limits',
  'size', 'expiry', 'expires', 'expiration', 'timeout', 'header', 'headers', 'prefix', 'suffix', 'format', 'policy', 'scope', 'scopes',
  'mode', 'version', 'hint', 'label', 'field', 'env', 'location', 'enabled', 'disabled', 'required', 'fingerprint', 'hash', 'digest',
  'sum', 'usage', 'max', 'min', 'kind', 'algorithm', 'alg', 'method', 'strategy', 'provider', 'source', 'helper', 'cmd', 'command',
  'manager', 'sock', 'socket', 'agent', 'launcher', 'pid', 'timestamp', 'at', 'date', 'created', 'updated', 'flag', 'flags', 'store',
  'stdin', 'rotation', 'rounds', 'regex', 'pattern', 'placeholder', 'schema', 'template', 'class', 'module', 'input', 'prompt', 'form',
  'strength', 'score', 'changed', 'visible', 'icon', 'button', 'page', 'route', 'component', 'validator', 'validation', 'ref', 'refs',
  'arn', 'region', 'note', 'description', 'desc', 'text', 'message', 'title', 'help', 'error', 'errors', 'status', 'state', 'remaining',
  'reset', 'param', 'parameter', 'variable', 'var', 'mount', 'volume', 'backend', 'engine', 'config', 'cache', 'accessor', 'bits',
  'budget', 'estimate', 'estimator', 'counter', 'detector', 'detectors', 'rule', 'rules', 'parser', 'scanner', 'scrubber', 'filter',
]);
/** Words that name a place secrets are kept in. */
const SECRET_PLACE_WORDS = new Set(['vault', 'store', 'storage', 'manager', 'keyring', 'keychain', 'wallet']);
/** Words of a pagination cursor's name (`nextPageToken`, `NextToken`, `continue`): opaque, random-looking, not secret. */
const PAGINATION_WORDS = new Set(['next', 'page', 'pagination', 'continuation', 'continue', 'cursor', 'sync', 'marker']);
/**
 * Words that make a token something else than a credential: a parser's token (`nonMatchingToken`,
 * `lastSignificantToken`), or a form's anti-forgery token (`authenticity_token`, `csrf-token`),
 * which is tied to one browser session and printed in every page.
 */
const NOT_SECRET_KINDS_OF_TOKEN: readonly string[] = ['matching', 'lexer', 'lexical', 'syntax', 'significant', 'punctuation', 'whitespace', 'delimiter', 'csrf', 'xsrf', 'authenticity'];
/** Words that say the name counts or describes tokens (`max_tokens`, `tokenizer`), or is a pagination cursor. */
const NOT_SECRET_WORDS = new Set(['jsonwebtoken', 'tokens', 'tokenizer', 'tokenizers', 'tokenize', 'tokenized', 'tokenization', ...PAGINATION_WORDS]);
/** `…_token` after one of NOT_SECRET_KINDS_OF_TOKEN: `csrf_token`, `nonMatchingToken` (but `CSRF_SECRET` stays secret). */
const isNotSecretToken = (w: readonly string[]): boolean => w.length > 1 && w[w.length - 1] === 'token' && NOT_SECRET_KINDS_OF_TOKEN.includes(w[w.length - 2] as string);

/**
 * `DB_PASSWORD` → db, password; `apiKey` → api, key; `x-auth-token` → x, auth, token. Of a
 * dotted name only the last part counts (`spring.datasource.password` → password,
 * `TokenType.WHITESPACE` → whitespace), or the last two when the last is `key` (`signing.key`).
 */
function words(name: string): string[] {
  const parts = name.split('.').filter((p) => p !== '');
  const last = parts.length > 1 && /^key$/i.test(parts[parts.length - 1] as string) ? parts.slice(-2).join('_') : (parts[parts.length - 1] ?? '');
  return last
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
}

export function nameSecrecy(name: string): NameSecrecy {
  if (name.length > 80) return undefined;
  const w = words(name);
  const last = w[w.length - 1];
  if (last === undefined || ORDINARY_LAST_WORDS.has(last)) return undefined;
  if (w.length === 1 && (last === 'pwd' || last === 'oldpwd')) return undefined; // the shell's working directory
  // Where secrets are kept (`keyVaultToStoreSecrets`, `secretsManagerPasswords`): the value names the place.
  if ((last === 'secrets' || last === 'passwords' || last === 'keys') && w.some((word) => SECRET_PLACE_WORDS.has(word))) return undefined;
  if (w.some((word) => NOT_SECRET_WORDS.has(word)) || isNotSecretToken(w)) return undefined;
  // A public or publishable token or key (`publicToken`, `PUBLISHABLE_KEY`) is printed in web pages on purpose.
  if (w.includes('public') || w.includes('publishable')) return undefined;
  if (last === 'auth') return 'auth'; // `_auth`, `"auth"`, `user_auth`, `basic_auth`
  if (w.length === 1 && last === 'key') return 'key';
  for (let i = 0; i < w.length; i++) {
    const word = w[i] as string;
    if (SECRET_WORDS.has(word) || SECRET_WORD_PARTS.test(word)) return 'secret';
    // `SMTP_PASS`, `dbPass`, `pass=…`, but not `PASS:` in test output.
    if (word === 'pass' && (w.length > 1 || name !== 'PASS')) return 'secret';
    if (word === 'key' && i > 0 && SECRET_KEY_PAIRS.has(w[i - 1] as string)) return 'secret';
  }
  if (last === 'key' && w.length > 1 && !ORDINARY_KEY_PAIRS.has(w[w.length - 2] as string)) return 'key';
  return undefined;
}

/** The kind a name-based redaction reports: `[REDACTED:password]`, `[REDACTED:api-key]` … */
export function secretKindForName(name: string): string {
  const w = words(name);
  const joined = w.join('_');
  if (/passw(?:or)?d|(?:^|_)(?:pwd|pass|passphrase|passcode|requirepass|masterauth)(?:_|$)/.test(joined)) return 'password';
  if (/private_?key/.test(joined)) return 'private-key';
  if (/api_?key/.test(joined)) return 'api-key';
  if (/token/.test(joined)) return 'token';
  if (/credential|(?:^|_)(?:creds|auth)(?:_|$)/.test(joined)) return 'credential';
  return 'secret';
}

/** Words of a name that hint at a credential without saying it: a random value under them is taken for one. */
const CREDENTIAL_HINT_WORDS = new Set([
  'session', 'sess', 'cookie', 'code', 'seed', 'auth', 'cred', 'access', 'private', 'bearer', 'jwt', 'otp', 'totp', 'hmac', 'pin',
  'license', 'licence', 'webhook', 'hook', 'sid', 'ticket', 'dsn', 'conn', 'connection', 'signing', 'cert', 'client', 'app', 'api',
  'mac', 'encryption', 'encrypt', 'cipher', 'master', 'root', 'admin', 'login', 'oauth', 'sso', 'saml', 'refresh', 'shared',
]);

/**
 * Whether a long random value under this name (which does not say secret) is taken for a secret:
 * under an environment variable's name (`SESSION_COOKIE_VALUE`, `CSRF_SEED`), or a name with a
 * word that hints at a credential (`session=`, `code=`, `oauthState`…). A program's own
 * identifier (`sumOfExposures = <random>`, `rookTable = …`) holds test data or ids, not a key.
 */
export function randomValueMayBeSecret(name: string): boolean {
  if (/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(name)) return true;
  return words(name).some((w) => CREDENTIAL_HINT_WORDS.has(w));
}

/** Names whose values are hashes, ids, paths, versions or signatures: never "high-entropy secrets". */
const ORDINARY_VALUE_NAME =
  /(?:hash|sha\d*|md5|crc\d*c?|sum|digest|integrity|checksum|etag|commit|rev|revision|version|id|uuid|guid|path|dir|file|url|uri|host|name|ref|branch|tag|image|key_id|fingerprint|sig|signature|nonce|ray|cursor|event|handler|listener|callback)$/i;

/** Whether a name says its value is an identifier, hash or path (for the high-entropy rule). */
export function holdsOrdinaryValue(name: string): boolean {
  if (ORDINARY_VALUE_NAME.test(name.replace(/[-_.]?\d+$/, ''))) return true;
  const w = words(name);
  // `public_key`, `primaryKey`, `foreignKey`: a key that is not a secret.
  if (w.length > 1 && w[w.length - 1] === 'key' && ORDINARY_KEY_PAIRS.has(w[w.length - 2] as string)) return true;
  return isNotSecretToken(w) || w.some((word) => PAGINATION_WORDS.has(word));
}

const TYPE_NAMES = 'string|number|boolean|bool|str|int|integer|float|bytes|any|object|unknown|undefined|null|none|optional|secretstr|string\\[\\]';
const TYPE_EXPRESSION = new RegExp(`^(?:${TYPE_NAMES})(?:[ \\t]*[|&][ \\t]*(?:${TYPE_NAMES}))*[;,]?$`, 'i');
const TYPE_ANNOTATION = /^(?:str|string|int|bytes|bool|Optional\[|SecretStr|String|number)\b/;
const PLACEHOLDER_WORD =
  /^(?:true|false|null|nil|none|undefined|yes|no|on|off|redacted|hidden|masked|protected|secret|password|token|changeme|required|optional|empty|unset|sensitive|n\/a|tbd|todo)$/i;
/** The longest word PLACEHOLDER_WORD matches (`undefined`, `protected`, `sensitive`). */
const LONGEST_PLACEHOLDER_WORD = 9;
/** The first letters, folded, of the types TYPE_EXPRESSION and TYPE_ANNOTATION start with. */
const TYPE_FIRST_LETTERS = new Set([...'sniubfao'].map((c) => c.charCodeAt(0)));
/** Placeholder shapes anchored at the value's start, tried only where its first character (folded) can begin one: y m s t i e p x . … */
const PLACEHOLDER_START = /^(?:your|my|some|the|insert|enter|put)[-_ ]|^x{4,}$|^\.{3}$|^…$/i;
const PLACEHOLDER_START_FIRST = new Set([...'ymstiepx.…'].map((c) => c.charCodeAt(0)));
/** A placeholder word anywhere in the value, as a word of its own; tried only when the value holds every letter of one of them. */
const PLACEHOLDER_WORD_INSIDE = /(?:^|[-_ <[(])(?:here|example|placeholder|changeme|replace[-_]?me|dummy|fake|redacted|masked|omitted|removed)(?:$|[-_ >\])])/i;
/** Their first letters: a word at the value's start needs no character before it. */
const PLACEHOLDER_WORD_FIRST = new Set([...'hepcrdfmo'].map((c) => c.charCodeAt(0)));
const PLACEHOLDER_WORD_LETTERS = letterSetsOf(['here', 'example', 'placeholder', 'changeme', 'replaceme', 'dummy', 'fake', 'redacted', 'masked', 'omitted', 'removed']);

/** `/oJYiJLZbmnqgoxwVUuYK4rcF06…`: base64 that happens to start with `/` (one segment, or a `+` or `=` no path holds), not a path. */
export const isBase64WithLeadingSlash = (v: string): boolean =>
  v.length >= 16 && /^\/[A-Za-z0-9+/]+={0,2}$/.test(v) && (/[+=]/.test(v) || v.indexOf('/', 1) === -1) && /[A-Z]/.test(v) && /[a-z]/.test(v) && /\d/.test(v);

/** Indexes of CHARACTER_TRAITS' tables past ASCII: `•` (a mask character), and any other character. */
const BULLET = 128;
const OTHER = 129;
/** In LETTER_TRAITS, past a letter's bit (a = 1 … z = 1 << 25): a character that may stand before a placeholder word inside a value (- _ blank [ ( <), a `<`, a mask character (`#` `*` `•`). */
const BOUNDARY = 1 << 26;
const ANGLE = 1 << 27;
const MASKS = 1 << 28;
const LETTER_BITS = BOUNDARY - 1;
/** In DIGIT_TRAITS, past a digit's bit (0 = 1 … 9 = 1 << 9): the character's place on a keyboard run (a digit's code, a letter's lower-case code; 0 for any other character). */
const KEY_SHIFT = 10;
const DIGIT_BITS = (1 << KEY_SHIFT) - 1;
/**
 * What isPlaceholderValue's pass needs of a character, by ASCII code, BULLET or OTHER, in three
 * tables (a load each): LETTER_TRAITS, DIGIT_TRAITS (see above), and RUN_LIMIT, how many of the
 * character in a row make a filler (six x's, ten of a letter or digit).
 */
const { LETTER_TRAITS, DIGIT_TRAITS, RUN_LIMIT } = (() => {
  const size = OTHER + 1;
  const traits = { LETTER_TRAITS: new Int32Array(size), DIGIT_TRAITS: new Int32Array(size), RUN_LIMIT: new Int32Array(size).fill(0x7fffffff) };
  for (let c = 0; c < 128; c++) {
    const folded = c | 0x20;
    const letter = folded >= 97 && folded <= 122;
    const digit = c >= 48 && c <= 57;
    if (letter) traits.LETTER_TRAITS[c] = 1 << (folded - 97);
    if (c === 60) traits.LETTER_TRAITS[c] = BOUNDARY | ANGLE;
    else if (c === 45 || c === 95 || c === 32 || c === 91 || c === 40) traits.LETTER_TRAITS[c] = BOUNDARY;
    else if (c === 35 || c === 42) traits.LETTER_TRAITS[c] = MASKS;
    if (digit) traits.DIGIT_TRAITS[c] = (1 << (c - 48)) | (c << KEY_SHIFT);
    if (letter) traits.DIGIT_TRAITS[c] = folded << KEY_SHIFT;
    if (letter || digit) traits.RUN_LIMIT[c] = folded === 120 ? 6 : 10;
  }
  traits.LETTER_TRAITS[BULLET] = MASKS;
  return traits;
})();

/** A printable ASCII character other than a blank: nothing `trim` would take off. */
const isPrintableAscii = (c: number): boolean => c > 32 && c < 127;

/** Values that are not secrets even under a secret name: placeholders, references, types, masks. */
export function isPlaceholderValue(value: string): boolean {
  const trimmed = isPrintableAscii(value.charCodeAt(0)) && isPrintableAscii(value.charCodeAt(value.length - 1)) ? value : value.trim();
  const last = trimmed.charCodeAt(trimmed.length - 1);
  const v = last === 59 || last === 44 ? trimmed.replace(/(?<=\w)[;,]$/, '') : trimmed; // a trailing `;` or `,` after a word
  if (v.length < 3) return true; // `token = "<"`: nothing worth hiding
  if (v.charCodeAt(0) === REDACTED_PREFIX.charCodeAt(0) && v.startsWith(REDACTED_PREFIX)) return true;
  if (startsLikePlaceholder(v)) return true;
  // One pass over the value decides the tests below that would each read all of it, by tables
  // (CHARACTER_TRAITS) rather than comparisons: on random tokens each comparison mispredicts.
  let letterTraits = 0;
  let digits = 0;
  let run = 0;
  let previous = -1;
  // Typed by hand (fakeValues.ts): a keyboard run of eight (`abcdefgh`, `12345678`; eight, not six, because a person's password may hold `123456`), a mask of four (`####`).
  let sequence = 1;
  let previousKey = 0;
  let mask = 0;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    const t = c < 128 ? c : c === 0x2022 ? BULLET : OTHER;
    const letter = LETTER_TRAITS[t] as number;
    const digit = DIGIT_TRAITS[t] as number;
    letterTraits |= letter;
    digits |= digit;
    const key = digit >> KEY_SHIFT;
    sequence = key === previousKey + 1 ? sequence + 1 : 1; // no key is 1: a character that is no key ends a run
    previousKey = key;
    mask = (mask + 1) & -((letter >> 28) & 1); // MASKS: all ones
    run = c === previous ? run + 1 : 1;
    previous = c;
    // One character repeated (`aaaaaaaa`), or a token format filled with one (`ghp_xxxx…`, `hf_aaaa…`): a random value never has ten alike in a row (holdsLongRun).
    if (sequence >= 8 || mask >= 4 || run >= (RUN_LIMIT[t] as number)) return true;
  }
  const letters = letterTraits & LETTER_BITS;
  digits &= DIGIT_BITS;
  const angle = (letterTraits & ANGLE) !== 0;
  const wordBoundary = (letterTraits & BOUNDARY) !== 0;
  if (PLACEHOLDER_START_FIRST.has(v.charCodeAt(0) | 0x20) && PLACEHOLDER_START.test(v)) return true;
  if ((wordBoundary || PLACEHOLDER_WORD_FIRST.has(v.charCodeAt(0) | 0x20)) && mayHoldOneOf(letters, PLACEHOLDER_WORD_LETTERS) && PLACEHOLDER_WORD_INSIDE.test(v)) return true;
  // Cut short or with a hole to fill: `ntn_...`, `sk-…`, `ops_eyJzaW..`, `sntrys_<your token>`.
  if (v.endsWith('..') || v.endsWith('…') || (angle && /<[^<>\s]*(?:[ _-][^<>]*)?>|<(?:your|my|insert|enter|the)\b/i.test(v))) return true;
  // One character repeated with separators (`0000-0000`, `x.x.x.x.x.x`): its second character is the first or a separator.
  const first = v.charCodeAt(0);
  const second = v.charCodeAt(1);
  if ((second === first || ((second === 45 || second === 95 || second === 46) && v.charCodeAt(2) === first)) && /^(.)(?:[-_.]?\1){5,}$/.test(v)) return true;
  // A unit of two to four repeated (`123123123`) holds four different letters and digits at most.
  if (v.length >= 9 && bitCount(letters) + bitCount(digits) <= 4 && isRepeatedUnit(v)) return true;
  return looksTypedByHand(v);
}

function bitCount(bits: number): number {
  let n = 0;
  for (let b = bits; b !== 0; b &= b - 1) n++;
  return n;
}

/**
 * A value typed as a stand-in, the shapes not decided in isPlaceholderValue's pass: a constant's
 * name (`ACCESS_TOKEN`, `YOUR_API_KEY`), AWS's `…EXAMPLE` keys, a default password of stock words
 * (`rootpasswd`, `admin123`); a label or code read where a value was expected.
 */
function looksTypedByHand(v: string): boolean {
  const first = v.charCodeAt(0);
  const last = v.charCodeAt(v.length - 1);
  // A label or a piece of code, not a value: `token:`, `telegram_api_token = `, `<xsd:element name=`. Each regex only where its end or start allows it.
  if (last === 58 && /^[a-z_]+:$/.test(v)) return true;
  if ((last === 61 || last === 32 || last === 9) && /\s=\s*$/.test(v)) return true;
  if (first === 60 && /^<[A-Za-z][\w:-]*\s/.test(v)) return true;
  if ((last === 69 || last === 89) && /EXAMPLE(?:KEY)?$/.test(v)) return true;
  if (first >= 65 && first <= 90 && /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(v) && /[A-Z]{3}_[A-Z]{3}/.test(v)) return true;
  return isStockWords(v);
}

/** Six x's (or X's) in a row, or ten of one letter or digit: `/x{6,}|X{6,}|([A-Za-z0-9])\1{9,}/` in one pass, without a regex tried at every character. */
export function holdsLongRun(v: string): boolean {
  let run = 0;
  let previous = -1;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    run = c === previous ? run + 1 : 1;
    previous = c;
    if (run >= 6 && (c === 120 || c === 88)) return true;
    if (run >= 10 && ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122))) return true;
  }
  return false;
}

/**
 * The placeholder shapes anchored at the value's start, each tried only when the value's first
 * character can begin it (most values are checked against a few of them, not all), and a
 * version only when the value holds a `.`.
 */
function startsLikePlaceholder(v: string): boolean {
  const c = v.charCodeAt(0);
  const digit = c >= 48 && c <= 57;
  const lower = c >= 97 && c <= 122;
  const letter = lower || (c >= 65 && c <= 90);
  // A setting (`token_ttl: 3600`, `1_000`, `0.5`); six digits or more may be a PIN or a password.
  if ((digit || c === 45) && /^-?\d[\d_]{0,4}$|^-?\d+\.\d+$/.test(v)) return true;
  if (letter && ((v.length <= LONGEST_PLACEHOLDER_WORD && PLACEHOLDER_WORD.test(v)) || (TYPE_FIRST_LETTERS.has(c | 0x20) && (TYPE_EXPRESSION.test(v) || TYPE_ANNOTATION.test(v))))) return true;
  // References: $VAR, ${VAR}, $(cmd), {{ tmpl }}, %VAR%, %(name)s, #{ruby}, <%= erb %>, ${{ secrets.X }}
  if ((c === 36 || c === 123 || c === 35 || c === 60) && (/^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?$/.test(v) || /^(?:\$\(|\$\{|\{\{|#\{|<%)/.test(v) || /^\$[0-9@*#?!$-]\}?$/.test(v))) return true;
  if (c === 37 && /^%[A-Za-z_][A-Za-z0-9_]*%$|^%(?:\([A-Za-z_][A-Za-z0-9_]*\))?[sdr]$/.test(v)) return true;
  // A version range (`"jsonwebtoken": "^9.0.2"`), not a password.
  if ((digit || c === 94 || c === 126 || c === 60 || c === 62 || c === 61 || c === 118) && v.includes('.') && /^(?:[\^~]|[<>]=?|=)?v?\d+(?:\.(?:\d+|x|\*)){1,3}(?:-[0-9A-Za-z.]+)?$/.test(v)) return true;
  // <your token>, <set to the key 'password' in secret 'db'>, (sensitive value), [hidden]; a JSX or template expression (value={value}).
  if ((c === 60 && /^<[^<>]*>/.test(v)) || (c === 40 && /^\([^()]*\)$/.test(v)) || (c === 91 && /^\[[^[\]]*\]$/.test(v)) || (c === 123 && /^\{[^{}]*\}$/.test(v))) return true;
  // A package and its version (`io.jsonwebtoken:jjwt-jackson-0.11.2`, `jsonwebtoken@9.0.2`), or a prefix alone (`sntrys_`).
  if (lower && ((v.includes('.') && /^[a-z][a-z0-9_.:-]*[-:@]v?\d+\.\d+(?:\.\d+)*(?:[-.][A-Za-z0-9]+)?(?::[a-z]+)?$/.test(v)) || (v.length <= 9 && /^[a-z]{2,8}[_-]$/.test(v)))) return true;
  // x's with separators (`xxxx-xxxx`); masks: ****, xxxx, ••••, ****************ABCD
  if ((c === 120 || c === 88) && /^[xX]{3,}(?:[-_.][xX]{3,})+$/.test(v)) return true;
  if ((c === 42 || c === 120 || c === 88 || c === 0x2022 || c === 46) && /^[*x•.]+$/i.test(v)) return true;
  if (c === 42 && /^\*{4,}/.test(v)) return true;
  // YAML block scalar indicators: the value is on the lines below.
  if ((c === 124 || c === 62) && /^[|>][-+]?\d?$/.test(v)) return true;
  // A file path; not a base64 secret that starts with `/` (one segment, long, mixed case and digits).
  return (c === 47 || c === 126 || c === 46) && /^(?:\/|~\/|\.\.?\/)/.test(v) && !isBase64WithLeadingSlash(v);
}

/** One segment of a member chain: a camelCase or snake_case identifier, maybe with a digit or two. */
const IDENTIFIER = '[A-Za-z_$][a-z_$]*(?:[A-Z][a-z_$]*)*\\d{0,2}';
const CODE_EXPRESSION = new RegExp(
  `^(?:await |new |typeof |!)?${IDENTIFIER}(?:\\??\\.${IDENTIFIER}|\\([^()]{0,200}\\)|\\[[^[\\]]{0,200}\\])*[,;)]*$`,
);

/**
 * `jwt.encode(…`, `os.environ[…`, `[]byte(…` (Go), `&Config{…`, `new Foo(…`: a call, an index or
 * a composite literal; `options.token ?? …`, `a.b || …`: a member chain in an expression.
 */
const CALL_OR_INDEX = new RegExp(
  `^(?:await |new |typeof |!|&|\\[\\])?${IDENTIFIER}(?:\\??\\.${IDENTIFIER})*[([{]|^${IDENTIFIER}(?:\\??\\.${IDENTIFIER})+[ \\t]+(?:\\?\\?|\\|\\||&&|[-+*/?:])`,
);

/**
 * An unquoted value that is code rather than a literal: `this.password`, `os.environ["X"]`,
 * `getpass()`, or an identifier where code would put one (`bareIdentifierIsCode`:
 * `{password:e,` in minified JS, `password = input` in Python).
 */
export function looksLikeCode(value: string, bareIdentifierIsCode: boolean): boolean {
  const v = value.trim();
  // A variable: short (minified) or letters with at most a digit or two at the end. A random
  // token has digits inside; a password of words (`Copper_maple46`, `Summer99`) has both cases and
  // digits at its end, which a variable's name seldom has.
  if (bareIdentifierIsCode && /^(?:[A-Za-z_$][\w$]{0,2}|[A-Za-z_$][A-Za-z_$]{0,40}\d{0,2})[;,]?$/.test(v) && !(/\d[;,]?$/.test(v) && /[A-Z]/.test(v) && /[a-z]/.test(v))) return true;
  // Both shapes below hold a member access, a call, an index or a literal's brace.
  if (!/[.([{]/.test(v)) return false;
  if (CALL_OR_INDEX.test(v)) return true;
  return CODE_EXPRESSION.test(v) && /[.([]/.test(v);
}

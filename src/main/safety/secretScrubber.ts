/**
 * Removes secrets from text before it reaches a model: terminal output, commands, file
 * contents, environment values.
 *
 * The scrubber is a table of detectors (SECRET_DETECTORS), each with a kind name. Most are one
 * global regex whose optional `redact` turns a match into its replacement, or returns undefined
 * to leave it alone (a validator: "this 3-part dotted string is not a JWT"); a few scan the
 * text themselves (key blocks, `name=value` pairs) where a regex could not stay linear.
 * Detectors run in table order: specific token formats first, then the broad name-based and
 * entropy rules. A value already replaced (`[REDACTED:…]`) is never matched again, which makes
 * scrubbing idempotent.
 *
 * Everything here must stay linear on hostile input (a 4 MB line of base64, thousands of BEGIN
 * lines): every unbounded run in a regex starts behind a negative lookbehind of its own
 * character class, so a match is tried only at the start of a run, and every other repetition
 * is bounded.
 */

/** A detector that is one global regex: each match is redacted whole, or as `redact` says. */
export interface PatternDetector {
  /** Short, stable name, shown in the replacement: `[REDACTED:<kind>]`. */
  kind: string;
  /** Must have the `g` flag. After a match is kept, the search goes on after it. */
  pattern: RegExp;
  /**
   * The replacement for one match, or undefined to keep the match as it is. Default: the
   * whole match becomes `[REDACTED:<kind>]`. Name-keeping detectors report their own kind.
   */
  redact?: (match: RegExpExecArray) => Redaction | undefined;
}

/** A detector that finds its spans itself, for rules a linear regex cannot express. */
export interface ScanDetector {
  kind: string;
  /** Non-overlapping spans, in order. */
  scan: (text: string) => Replacement[];
}

export type SecretDetector = PatternDetector | ScanDetector;

export interface Replacement {
  start: number;
  end: number;
  text: string;
  kind: string;
}

export interface Redaction {
  text: string;
  kind: string;
}

export interface ScrubResult {
  text: string;
  /** How many of each kind were replaced, sorted by kind. Empty when nothing was found. */
  redactions: { kind: string; count: number }[];
}

const REDACTED_PREFIX = '[REDACTED:';

export function redacted(kind: string): string {
  return `${REDACTED_PREFIX}${kind}]`;
}

// ---------------------------------------------------------------------------------------------
// Helpers for validators

function shannonEntropy(value: string): number {
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let entropy = 0;
  const length = [...value].length;
  for (const count of counts.values()) {
    const p = count / length;
    entropy -= p * Math.log2(p);
  }
  return entropy;
}

function count(value: string, re: RegExp): number {
  return value.match(re)?.length ?? 0;
}

function hasDigitAndLetter(value: string): boolean {
  return /\d/.test(value) && /[A-Za-z]/.test(value);
}

function decodeBase64Url(part: string): string | undefined {
  try {
    const normal = part.replace(/-/g, '+').replace(/_/g, '/');
    return Buffer.from(normal + '='.repeat((4 - (normal.length % 4)) % 4), 'base64').toString('utf8');
  } catch {
    return undefined;
  }
}

function isJwtHeader(part: string): boolean {
  const json = decodeBase64Url(part);
  if (!json || !json.trimStart().startsWith('{')) return false;
  try {
    const header: unknown = JSON.parse(json);
    return typeof header === 'object' && header !== null && ('alg' in header || 'typ' in header || 'kid' in header || 'enc' in header);
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Name-based rules

/** Names that say the value is a secret. */
const SECRET_NAME =
  /secret|token|passw(?:or)?d|pwd|passphrase|api[_.-]?key|private[_.-]?key|access[_.-]?key|credential|auth[_.-]?key|session[_.-]?key|signing[_.-]?key|encryption[_.-]?key/i;

/** Names that contain a secret word but hold something else. */
const NOT_SECRET_NAME = /^(?:PWD|OLDPWD)$|tokeniz|token[_-]?(?:count|type|limit|usage|s)$|^(?:max|min|num|total|input|output|prompt|completion|cache[_a-z]*)[_-]?tokens$/i;

/** Names whose values are hashes, ids, paths or versions: never "high-entropy secrets". */
const NOT_SECRET_VALUE_NAME =
  /(?:hash|sha\d*|sum|digest|integrity|checksum|etag|commit|rev|revision|version|id|uuid|guid|path|dir|file|url|uri|host|name|ref|branch|tag|image|key_id|fingerprint)$/i;

/** Values that are not secrets even under a secret-looking name: placeholders, references, types. */
function isPlaceholderValue(value: string): boolean {
  const v = value.trim();
  if (v === '') return true;
  if (v.startsWith(REDACTED_PREFIX)) return true;
  if (/^-?\d+(?:\.\d+)?$/.test(v)) return true;
  if (
    /^(?:true|false|null|nil|none|undefined|string|number|boolean|bool|str|int|bytes|any|object|optional|required|yes|no|on|off|redacted|hidden|secret|password|token|changeme)$/i.test(v)
  ) {
    return true;
  }
  if (/^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?$/.test(v) || v === '$' || v.startsWith('$(') || v.startsWith('${') || v.startsWith('{{') || v.startsWith('%')) return true;
  if (/^<[^<>]*>$/.test(v)) return true;
  if (/^[*x•.]+$/i.test(v)) return true;
  if (/^(?:\/|~\/|\.\.?\/)/.test(v)) return true; // a file path
  return false;
}

function secretKindForName(name: string): string {
  if (/passw(?:or)?d|pwd|passphrase/i.test(name)) return 'password';
  if (/private[_.-]?key/i.test(name)) return 'private-key';
  if (/api[_.-]?key/i.test(name)) return 'api-key';
  if (/token/i.test(name)) return 'token';
  if (/credential/i.test(name)) return 'credential';
  return 'secret';
}

function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name) && !NOT_SECRET_NAME.test(name);
}

/** A random-looking token: long, mixed case and digits, high entropy, not hex, not a UUID. */
export function looksHighEntropy(value: string): boolean {
  if (value.length < 20 || value.length > 128) return false;
  if (!/^[A-Za-z0-9_-]+$/.test(value)) return false;
  if (/^[0-9a-f]+$/i.test(value)) return false;
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)) return false;
  if (count(value, /\d/g) < 2 || count(value, /[A-Z]/g) < 2 || count(value, /[a-z]/g) < 2) return false;
  if (/^[A-Za-z]+(?:[_-][A-Za-z0-9]+)+$/.test(value) && !/[A-Za-z0-9]{16}/.test(value)) return false; // snake/kebab words
  const threshold = 0.82 * Math.log2(Math.min(value.length, 64));
  return shannonEntropy(value) >= threshold;
}

/** Unquotes a captured value; returns the quote char and the inner text. */
function splitQuotes(raw: string): { quote: string; inner: string } {
  const first = raw[0];
  if ((first === '"' || first === "'") && raw.length >= 2 && raw.endsWith(first)) return { quote: first, inner: raw.slice(1, -1) };
  return { quote: '', inner: raw };
}

interface AssignmentParts {
  name: string;
  /** Blanks between the name and the operator. */
  before: string;
  op: string;
  after: string;
  /** The value as written, quotes included. */
  raw: string;
}

interface AssignmentRule {
  /** Cheap test on the name alone; the value is parsed only when it passes. */
  acceptsName: (name: string) => boolean;
  /** Sticky regex for the value at the position after the operator. */
  value: RegExp;
  redact: (parts: AssignmentParts) => Redaction | undefined;
}

// `NAME=value`, `name: value`, `--name=value`, `name = "value"`: the name and the operator. The
// value is parsed separately, only for names a rule accepts, so scanning stays linear.
const NAME_AND_OPERATOR = /(?<![A-Za-z0-9_.$])([A-Za-z_][A-Za-z0-9_.-]{0,80})([ \t]*)([:=])([ \t]*)/g;
// A secret value: quoted, or unquoted up to a blank, a quote or a shell/URL/list separator.
const SECRET_VALUE = /"(?:\\.|[^"\\\r\n]){0,4096}"|'[^'\r\n]{0,4096}'|\$\{[^}\s]{1,200}\}|[^\s'"&;,|<>()[\]{}`]{1,4096}/y;
// A token-like value for the entropy rule: 20–128 characters of base62/base64url.
const TOKEN_VALUE = /"[A-Za-z0-9_-]{20,128}"|'[A-Za-z0-9_-]{20,128}'|[A-Za-z0-9_-]{20,128}(?![A-Za-z0-9_-])/y;

function scanAssignments(text: string, rule: AssignmentRule): Replacement[] {
  const out: Replacement[] = [];
  const re = new RegExp(NAME_AND_OPERATOR.source, 'g');
  const valueRe = new RegExp(rule.value.source, 'y');
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const [whole, name = '', before = '', op = '', after = ''] = m;
    if (!rule.acceptsName(name)) continue;
    const valueStart = m.index + whole.length;
    valueRe.lastIndex = valueStart;
    const value = valueRe.exec(text);
    if (!value) continue;
    const redaction = rule.redact({ name, before, op, after, raw: value[0] });
    if (!redaction) continue;
    const end = valueStart + value[0].length;
    out.push({ start: m.index, end, text: redaction.text, kind: redaction.kind });
    re.lastIndex = end;
  }
  return out;
}

const secretNameRule: AssignmentRule = {
  acceptsName: isSecretName,
  value: SECRET_VALUE,
  redact: ({ name, before, op, after, raw }) => {
    const { quote, inner } = splitQuotes(raw);
    // Code with blanks around `=` counts only with a quoted value: `password = input` is not a secret.
    if (op === '=' && before.length > 0 && quote === '') return undefined;
    // `https://…`: a URL scheme, not a `name: value` pair.
    if (op === ':' && raw.startsWith('//')) return undefined;
    if (isPlaceholderValue(inner)) return undefined;
    const kind = secretKindForName(name);
    return { text: `${name}${before}${op}${after}${quote}${redacted(kind)}${quote}`, kind };
  },
};

const highEntropyRule: AssignmentRule = {
  acceptsName: (name) => !NOT_SECRET_VALUE_NAME.test(name),
  value: TOKEN_VALUE,
  redact: ({ name, before, op, after, raw }) => {
    const { quote, inner } = splitQuotes(raw);
    if (!looksHighEntropy(inner)) return undefined;
    return { text: `${name}${before}${op}${after}${quote}${redacted('high-entropy')}${quote}`, kind: 'high-entropy' };
  },
};

// `"name": "value"` and `'name': 'value'` (JSON, Python dicts). A rejected match is skipped
// whole, which is right: a quoted value holds no key.
const QUOTED_KEY = /(["'])([A-Za-z0-9_.-]{1,80})\1([ \t]*:[ \t]*)("(?:\\.|[^"\\\r\n]){0,4096}"|'[^'\r\n]{0,4096}')/g;
// `--password hunter2`, `--token "abc"` on a command line.
const FLAG_WITH_SPACE = /(?<![A-Za-z0-9_-])(--[A-Za-z][A-Za-z0-9-]{0,60})([ \t]+)("[^"\r\n]{1,4096}"|'[^'\r\n]{1,4096}'|[^\s'"-][^\s'"&;|<>()`]{0,4095})/g;

function redactQuotedKey(m: RegExpExecArray): Redaction | undefined {
  const [, keyQuote = '', name = '', sep = '', raw = ''] = m;
  if (!isSecretName(name)) return undefined;
  const { quote, inner } = splitQuotes(raw);
  if (isPlaceholderValue(inner)) return undefined;
  const kind = secretKindForName(name);
  return { text: `${keyQuote}${name}${keyQuote}${sep}${quote}${redacted(kind)}${quote}`, kind };
}

function redactFlag(m: RegExpExecArray): Redaction | undefined {
  const [, flag = '', space = '', raw = ''] = m;
  if (!isSecretName(flag.replace(/^-+/, ''))) return undefined;
  const { quote, inner } = splitQuotes(raw);
  if (isPlaceholderValue(inner)) return undefined;
  const kind = secretKindForName(flag);
  return { text: `${flag}${space}${quote}${redacted(kind)}${quote}`, kind };
}

const PEM_BEGIN = /-----BEGIN (?:[A-Z0-9]+ ){0,4}PRIVATE KEY(?: BLOCK)?-----/g;
const PEM_END = /-----END (?:[A-Z0-9]+ ){0,4}PRIVATE KEY(?: BLOCK)?-----/g;
/** A line of a key body: base64, or an RFC 1421 header such as `Proc-Type: 4,ENCRYPTED`. */
const KEY_BODY_LINE = /^(?:[A-Za-z0-9+/=]*|[A-Za-z-]{1,40}: [^\n]*)\r?$/;
const BASE64_LINE = /^[A-Za-z0-9+/=]{16,}\r?$/;
/** A 16 kbit RSA key is about 200 lines (13 KB) of base64; a key block is never longer. */
const MAX_KEY_LINES = 256;
const MAX_KEY_BLOCK_CHARS = 64 * 1024;

function allMatches(re: RegExp, text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  const global = new RegExp(re.source, 'g');
  let m: RegExpExecArray | null;
  while ((m = global.exec(text)) !== null) out.push({ start: m.index, end: m.index + m[0].length });
  return out;
}

/** End of the key body lines that follow `from` (a line break or the end of the text). */
function keyBodyEnd(text: string, from: number): number {
  let end = from;
  for (let n = 0; n < MAX_KEY_LINES && text[end] === '\n'; n++) {
    const next = text.indexOf('\n', end + 1);
    const lineEnd = next === -1 ? text.length : next;
    if (!KEY_BODY_LINE.test(text.slice(end + 1, lineEnd))) break;
    end = lineEnd;
  }
  return end;
}

/** Start of the base64 lines just above `to` (the start of an END line). */
function keyBodyStart(text: string, to: number, floor: number): number {
  let start = to;
  for (let n = 0; n < MAX_KEY_LINES && start > floor && text[start - 1] === '\n'; n++) {
    const lineStart = text.lastIndexOf('\n', start - 2) + 1;
    if (lineStart < floor || !BASE64_LINE.test(text.slice(lineStart, start - 1))) break;
    start = lineStart;
  }
  return start;
}

/**
 * PEM private key blocks, in linear time however many markers the text holds: a whole block
 * (BEGIN … END); a block whose end is missing (output cut off): the BEGIN line and the body
 * lines under it; a block whose start scrolled away: the base64 lines above an END line.
 */
function scanPrivateKeys(text: string): Replacement[] {
  if (!text.includes('PRIVATE KEY')) return [];
  const begins = allMatches(PEM_BEGIN, text);
  const ends = allMatches(PEM_END, text);
  const out: Replacement[] = [];
  const usedEnds = new Set<number>();
  let floor = 0;
  let e = 0;
  for (let b = 0; b < begins.length; b++) {
    const begin = begins[b] as { start: number; end: number };
    if (begin.start < floor) continue;
    while (e < ends.length && (ends[e] as { start: number }).start < begin.end) e++;
    const end = ends[e];
    const nextBegin = begins[b + 1];
    let stop: number;
    if (end && (!nextBegin || nextBegin.start > end.start) && end.end - begin.start <= MAX_KEY_BLOCK_CHARS) {
      stop = end.end;
      usedEnds.add(e);
    } else {
      stop = keyBodyEnd(text, begin.end);
    }
    out.push({ start: begin.start, end: stop, text: redacted('private-key'), kind: 'private-key' });
    floor = stop;
  }
  floor = 0;
  let r = 0;
  const tails: Replacement[] = [];
  ends.forEach((end, i) => {
    if (usedEnds.has(i)) return;
    while (r < out.length && (out[r] as Replacement).end <= end.start) floor = Math.max(floor, (out[r++] as Replacement).end);
    if (r < out.length && (out[r] as Replacement).start <= end.start) return; // inside a redacted block
    const start = keyBodyStart(text, end.start, floor);
    if (start < end.start) tails.push({ start, end: end.end, text: redacted('private-key'), kind: 'private-key' });
  });
  return [...out, ...tails].sort((a, b) => a.start - b.start);
}

// ---------------------------------------------------------------------------------------------
// The table

const keepWhen =
  (valid: (match: string) => boolean, kind: string) =>
  (m: RegExpExecArray): Redaction | undefined =>
    valid(m[0]) ? { text: redacted(kind), kind } : undefined;

/** Detectors in the order they run. Extend by adding rows; keep specific formats before broad rules. */
export const SECRET_DETECTORS: readonly SecretDetector[] = [
  // Key blocks first, so no other rule sees pieces of one.
  { kind: 'private-key', scan: scanPrivateKeys },
  { kind: 'anthropic-api-key', pattern: /(?<![A-Za-z0-9_-])sk-ant-[A-Za-z0-9_-]{20,}/g },
  {
    kind: 'openai-api-key',
    pattern: /(?<![A-Za-z0-9_-])sk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}/g,
    redact: keepWhen((s) => hasDigitAndLetter(s.slice(3)), 'openai-api-key'),
  },
  { kind: 'github-token', pattern: /(?<![A-Za-z0-9_])(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,255}(?![A-Za-z0-9])/g },
  { kind: 'github-token', pattern: /(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{22,255}(?![A-Za-z0-9_])/g },
  { kind: 'gitlab-token', pattern: /(?<![A-Za-z0-9_-])glpat-[A-Za-z0-9_-]{20,}/g },
  { kind: 'slack-webhook', pattern: /https?:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/-]+/g },
  { kind: 'slack-token', pattern: /(?<![A-Za-z0-9_-])(?:xox[abposr]|xapp)-[A-Za-z0-9-]{10,}/g },
  { kind: 'stripe-key', pattern: /(?<![A-Za-z0-9_])(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}(?![A-Za-z0-9])/g },
  { kind: 'stripe-key', pattern: /(?<![A-Za-z0-9_])whsec_[A-Za-z0-9]{20,}(?![A-Za-z0-9])/g },
  { kind: 'google-api-key', pattern: /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  { kind: 'npm-token', pattern: /(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g },
  { kind: 'aws-access-key-id', pattern: /(?<![A-Z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Z0-9])/g },
  {
    kind: 'jwt',
    pattern: /(?<![A-Za-z0-9_-])(ey[A-Za-z0-9_-]{8,})\.([A-Za-z0-9_-]{2,})\.([A-Za-z0-9_-]*)(?![A-Za-z0-9_-])/g,
    redact: (m) => (isJwtHeader(m[1] ?? '') ? { text: redacted('jwt'), kind: 'jwt' } : undefined),
  },
  {
    // scheme://user:password@host: keep the user and the host.
    kind: 'url-password',
    pattern: /(?<![A-Za-z0-9+.-])([A-Za-z][A-Za-z0-9+.-]{0,30}:\/\/)([^\s:@/?#'"]{1,256}):([^\s@/?#'"]{1,256})@/g,
    redact: (m) => {
      const [, scheme = '', user = '', password = ''] = m;
      if (isPlaceholderValue(password)) return undefined;
      return { text: `${scheme}${user}:${redacted('url-password')}@`, kind: 'url-password' };
    },
  },
  {
    kind: 'authorization',
    pattern: /(?<![A-Za-z0-9_-])((?:Proxy-)?Authorization[ \t]*[:=][ \t]*(?:(?:Bearer|Basic|Token|Digest|Bot)[ \t]+)?)([A-Za-z0-9._~+/=-]{8,})/gi,
    redact: (m) => {
      if (isPlaceholderValue(m[2] ?? '')) return undefined;
      return { text: `${m[1] ?? ''}${redacted('authorization')}`, kind: 'authorization' };
    },
  },
  {
    kind: 'authorization',
    pattern: /(?<![A-Za-z0-9_-])(Bearer[ \t]+)([A-Za-z0-9._~+/-]{20,}=*)/g,
    redact: (m) => ({ text: `${m[1] ?? ''}${redacted('authorization')}`, kind: 'authorization' }),
  },
  {
    kind: 'aws-secret-access-key',
    pattern: /(?<![A-Za-z0-9_])((?:aws_?)?secret_?(?:access_?)?key["']?[ \t]*[:=][ \t]*["']?)([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/gi,
    redact: (m) => ({ text: `${m[1] ?? ''}${redacted('aws-secret-access-key')}`, kind: 'aws-secret-access-key' }),
  },
  { kind: 'secret-assignment', pattern: QUOTED_KEY, redact: redactQuotedKey },
  { kind: 'secret-assignment', scan: (text) => scanAssignments(text, secretNameRule) },
  { kind: 'secret-assignment', pattern: FLAG_WITH_SPACE, redact: redactFlag },
  { kind: 'high-entropy', scan: (text) => scanAssignments(text, highEntropyRule) },
];

function patternReplacements(text: string, detector: PatternDetector): Replacement[] {
  const flags = detector.pattern.flags.includes('g') ? detector.pattern.flags : `${detector.pattern.flags}g`;
  const re = new RegExp(detector.pattern.source, flags);
  const out: Replacement[] = [];
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    if (m[0] === '') {
      re.lastIndex++;
      continue;
    }
    const replacement = detector.redact ? detector.redact(m) : { text: redacted(detector.kind), kind: detector.kind };
    if (!replacement) continue;
    out.push({ start: m.index, end: m.index + m[0].length, ...replacement });
  }
  return out;
}

function applyDetector(text: string, detector: SecretDetector, counts: Map<string, number>): string {
  const replacements = 'scan' in detector ? detector.scan(text) : patternReplacements(text, detector);
  if (replacements.length === 0) return text;
  let out = '';
  let last = 0;
  for (const r of replacements) {
    if (r.start < last || r.end <= r.start || r.text === text.slice(r.start, r.end)) continue;
    out += text.slice(last, r.start) + r.text;
    last = r.end;
    counts.set(r.kind, (counts.get(r.kind) ?? 0) + 1);
  }
  return last === 0 ? text : out + text.slice(last);
}

/** Replaces every secret the detectors recognise with `[REDACTED:<kind>]`; never throws. */
export function scrubSecrets(text: string, detectors: readonly SecretDetector[] = SECRET_DETECTORS): ScrubResult {
  const counts = new Map<string, number>();
  let out = typeof text === 'string' ? text : String(text);
  for (const detector of detectors) out = applyDetector(out, detector, counts);
  const redactions = [...counts.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([kind, n]) => ({ kind, count: n }));
  return { text: out, redactions };
}

/** "2 secrets redacted (github-token, password)" or '' when there were none. */
export function describeRedactions(redactions: ScrubResult['redactions']): string {
  const total = redactions.reduce((sum, r) => sum + r.count, 0);
  if (total === 0) return '';
  return `${total} secret${total === 1 ? '' : 's'} redacted (${redactions.map((r) => r.kind).join(', ')})`;
}

// ---------------------------------------------------------------------------------------------
// Environment

/** Variables never passed on, whatever the allow-list says. */
const SECRET_ENV_NAME = /(?:^|_)(?:KEY|SECRET|TOKEN|PASSWORD|PASSWD|PASS|PWD|CREDENTIALS?|PRIVATE_KEY|API_KEY)$/i;

/** Whether an environment variable name is refused even when allow-listed. */
export function isSecretEnvironmentName(name: string): boolean {
  if (name === 'PWD' || name === 'OLDPWD') return false;
  return SECRET_ENV_NAME.test(name);
}

/**
 * The allow-listed variables of `env` that are set, minus any whose name ends in `_KEY`,
 * `_SECRET`, `_TOKEN`, `_PASSWORD` (and similar), with their values scrubbed.
 */
export function scrubEnvironment(env: Readonly<Record<string, string | undefined>>, includeNames: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of includeNames) {
    if (isSecretEnvironmentName(name)) continue;
    if (!Object.prototype.hasOwnProperty.call(env, name)) continue;
    const value = env[name];
    if (typeof value !== 'string') continue;
    out[name] = scrubSecrets(value).text;
  }
  return out;
}

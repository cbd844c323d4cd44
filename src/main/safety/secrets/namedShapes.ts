/**
 * Other shapes of "a name, then its value": a quoted name and value as a call's first two
 * arguments (PHP `define('DB_PASSWORD', …)`, Java `setProperty("X_TOKEN", "…")`, `put("apiKey",
 * "…")`), an index assignment (`os.environ["X_TOKEN"] = "…"`), `--password x` on a command line,
 * XML elements (`<password>…</password>`,
 * also with the value on a line of its own), and `.netrc` lines.
 */
import { redacted, type PatternDetector, type Replacement } from './redaction';
import { isPlaceholderValue } from './secretNames';
import { letterSetsOf, mayHoldOneOf } from './letterSets';
import { LineTracker } from './textSearch';
import type { KeywordHits } from './keywordScan';
import { redactNamed } from './valueJudgement';

const QUOTED = `"(?:\\\\.|[^"\\\\\\r\\n]){0,4096}"|'(?:\\\\.|[^'\\\\\\r\\n]){0,4096}'`;

const isWordChar = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45;
const isOptionChar = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 45;
/** The words an option naming a secret holds (the lookahead of its pattern below). */
const OPTION_WORD_SETS = letterSetsOf(['pass', 'secret', 'token', 'key', 'auth', 'cred', 'pwd', 'salt']);
/** The longest stretch of option characters the pattern's lookahead reads: 60 before the word, the longest word. */
const MAX_OPTION_LOOK = 60 + 'secret'.length;
/** The letters (see letterSets.ts) of the option characters from `from`, as far as the pattern's lookahead reads: one pass. */
function optionLetters(text: string, from: number): number {
  let bits = 0;
  for (let i = from; i - from < MAX_OPTION_LOOK; i++) {
    const c = text.charCodeAt(i);
    if (!isOptionChar(c)) break;
    const folded = c | 0x20;
    if (folded >= 97 && folded <= 122) bits |= 1 << (folded - 97);
  }
  return bits;
}

export const NAMED_VALUE_DETECTORS: readonly PatternDetector[] = [
  {
    // PHP: define( 'DB_PASSWORD', '…' );
    kind: 'secret-assignment',
    keywords: ['define('],
    pattern: new RegExp(`(?<![A-Za-z0-9_])(define\\([ \\t]*(["'])([A-Za-z0-9_]{1,80})\\2[ \\t]*,[ \\t]*)(${QUOTED})`, 'g'),
    redact: (m) => redactNamed(m[1] ?? '', m[3] ?? '', m[4] ?? ''),
  },
  {
    // setProperty("X_TOKEN", "…"), put('apiKey', '…'), env["X_TOKEN"] = "…", ENV['X_TOKEN'] ||= '…'
    kind: 'secret-assignment',
    keywords: ['("', "('", '["', "['"],
    pattern: new RegExp(`([([](["'])([A-Za-z_][A-Za-z0-9_.-]{0,79})\\2[ \\t]*(?:,|\\][ \\t]*(?:[.+]|\\|\\|)?=)[ \\t]*)(${QUOTED})`, 'g'),
    redact: (m) => redactNamed(m[1] ?? '', m[3] ?? '', m[4] ?? ''),
  },

  {
    // --password hunter2, --token "abc" on a command line.
    kind: 'secret-assignment',
    // `--` and the option's first letter (a rule of dashes holds no keyword); not where the `--` is glued to a word, nor where the option cannot name a secret.
    keywords: [...'abcdefghijklmnopqrstuvwxyz'].map((letter) => `--${letter}`),
    ignoreCase: true,
    startsFrom: (text, at) => (at > 0 && isWordChar(text.charCodeAt(at - 1))) || !mayHoldOneOf(optionLetters(text, at + 2), OPTION_WORD_SETS) ? -1 : at,
    pattern: /(?<![A-Za-z0-9_-])(--(?=[A-Za-z0-9-]{0,60}?(?:pass|secret|token|key|auth|cred|pwd|salt|Pass|Secret|Token|Key|PASS|SECRET|TOKEN|KEY))[A-Za-z][A-Za-z0-9-]{0,60})([ \t]+)("[^"\r\n]{1,4096}"|'[^'\r\n]{1,4096}'|[^\s'"<>-][^\s'"&;|<>()`]{0,4095})/g,
    redact: (m) => redactNamed(`${m[1] ?? ''}${m[2] ?? ''}`, (m[1] ?? '').replace(/^-+/, ''), m[3] ?? ''),
  },
];

const NETRC_LINE = /([ \t]*(?:(?:machine[ \t]+\S+|default)[ \t]+)?(?:(?:login|account)[ \t]+\S+[ \t]+)*(?:password|passwd)[ \t]+)(\S{1,4096})(?=[ \t\r]*(?:\n|$)|[ \t]+(?:login|machine|account|macdef|default)\b)/y;
const MAX_NETRC_PREFIX = 600;
/** The first letters of the words a NETRC_LINE starts with (machine, default, login, account, password): most lines holding `passw` start otherwise. */
const NETRC_FIRST_LETTERS = new Set([...'mdlap'].map((c) => c.charCodeAt(0)));
const afterBlanks = (text: string, at: number): number => {
  let i = at;
  while (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9) i++;
  return i;
};

/** .netrc: `machine host login user password secret`, or `password secret` on a line of its own. */
export function scanNetrc(text: string, passw: KeywordHits): Replacement[] {
  const out: Replacement[] = [];
  // A line starting further back than a `.netrc` line may have before its `password` is not looked back over to its start.
  const line = new LineTracker(text, MAX_NETRC_PREFIX);
  let lastLine = -1;
  for (const at of passw.starts) {
    line.moveTo(at);
    if (line.start === lastLine || at - line.start > MAX_NETRC_PREFIX) continue;
    lastLine = line.start;
    if (!NETRC_FIRST_LETTERS.has(text.charCodeAt(afterBlanks(text, line.start)))) continue;
    NETRC_LINE.lastIndex = line.start;
    const m = NETRC_LINE.exec(text);
    // A word that ends a sentence (`… the password combination.`) is prose, not a `.netrc` line.
    if (!m || isPlaceholderValue(m[2] ?? '') || /^[A-Za-z]+[.,;:!?]$/.test(m[2] ?? '')) continue;
    out.push({ start: line.start, end: line.start + m[0].length, text: `${m[1] ?? ''}${redacted('password')}`, kind: 'password' });
  }
  return out;
}

const CLOSING_TAG = /<\/([A-Za-z][A-Za-z0-9_.:-]{0,90})>/y;
const MAX_ELEMENT_TEXT = 4096;

/**
 * XML: <password>…</password>, <ns:Token>…</ns:Token>, on one line or with the value on a line of its own. Found from each `</`, which
 * is rare in terminal output; the text holds no `<`, so the opening tag is the last `<` before.
 */
export function scanXmlElements(text: string, closingTags: KeywordHits): Replacement[] {
  const out: Replacement[] = [];
  for (const at of closingTags.starts) {
    CLOSING_TAG.lastIndex = at;
    const m = CLOSING_TAG.exec(text);
    if (!m) continue;
    const tag = m[1] as string;
    const open = `<${tag}>`;
    const start = text.lastIndexOf('<', at - 1);
    if (start === -1 || at - start > MAX_ELEMENT_TEXT + open.length || !text.startsWith(open, start)) continue;
    const inner = text.slice(start + open.length, at);
    // The value on a line of its own (`<apiToken>⏎  …⏎</apiToken>`): the blanks around it are kept.
    const value = inner.trim();
    if (value === '' || /[\r\n]/.test(value)) continue;
    if (out.length > 0 && start < (out[out.length - 1] as Replacement).end) continue;
    const lead = inner.slice(0, inner.indexOf(value));
    const trail = inner.slice(lead.length + value.length);
    const redaction = redactNamed(open + lead, tag.replace(/^.*:/, ''), value, `${trail}</${tag}>`);
    if (redaction) out.push({ start, end: at + m[0].length, ...redaction });
  }
  return out;
}

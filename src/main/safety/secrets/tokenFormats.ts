/**
 * Secrets recognisable by their own format, wherever they appear: OpenAI keys (the other vendor
 * tokens with a fixed prefix, GitHub, GitLab, Slack, Google, AWS key ids …, are in
 * vendorTokens.ts), Slack webhooks, JWTs, Bearer tokens, AWS secret keys, passwords in URLs.
 *
 * Every pattern starts with a lookbehind of the characters a token is made of, so it matches
 * only where a token starts, and ends with a matching lookahead, so a longer run of token
 * characters (base64 data, a hash) is never cut into a "token".
 */
import { isPlaceholderPair } from './credentialPairs';
import { isPlaceholderValue } from './secretNames';
import { redacted, type PatternDetector, type Redaction, type Replacement } from './redaction';
import type { KeywordHits } from './keywordScan';
import { isPlaceholderToken } from './vendorTokens';

function decodeBase64Url(part: string): string {
  return Buffer.from(part.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
}

/**
 * Whether the first part of a dotted base64url string decodes to what starts a JOSE header: `{"`.
 * Its fields vary (`alg`, `typ`, `kid`, `enc`, `apu`, `cty` …) and a header cut or garbled in a
 * log still marks a token; three dotted parts after `{"` are a JWT in practice.
 */
function isJwtHeader(part: string): boolean {
  return decodeBase64Url(part).trimStart().startsWith('{"');
}

/** Whether `[_-]?(?:access[_-]?)?key` (any case) follows `secret` ending at `end`: most `secret`s in output are not an AWS key's name. */
function followedByKeyWord(text: string, end: number): boolean {
  let i = end;
  const separator = (k: number): boolean => text.charCodeAt(k) === 95 || text.charCodeAt(k) === 45;
  if (separator(i)) i++;
  if (wordAt(text, i, 'access')) {
    i += 6;
    if (separator(i)) i++;
  }
  return wordAt(text, i, 'key');
}

/** Whether `lower` (lower-case ASCII letters) stands at `at` in any case. */
function wordAt(text: string, at: number, lower: string): boolean {
  for (let k = 0; k < lower.length; k++) if ((text.charCodeAt(at + k) | 0x20) !== lower.charCodeAt(k)) return false;
  return true;
}

const isTokenCharOrDash = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45;

const hasDigitAndLetter = (value: string): boolean => /\d/.test(value) && /[A-Za-z]/.test(value);

const keepWhen =
  (valid: (match: string) => boolean, kind: string) =>
  (m: RegExpExecArray): Redaction | undefined =>
    valid(m[0]) ? { text: redacted(kind), kind } : undefined;

/** Keeps group 1 (a name, a header, a scheme and user), redacts the rest of the match. */
const keepPrefix =
  (kind: string) =>
  (m: RegExpExecArray): Redaction | undefined =>
    isPlaceholderValue(m[2] ?? '') ? undefined : { text: `${m[1] ?? ''}${redacted(kind)}`, kind };

/** Where a Discord webhook URL holding `/api/webhooks/` at `at` starts: its host, with or without a scheme. */
function discordWebhookStart(text: string, at: number): number {
  let host = -1;
  for (const name of ['discord.com', 'discordapp.com']) if (text.startsWith(name, at - name.length)) host = at - name.length;
  if (host === -1) return -1;
  for (const prefix of ['ptb.', 'canary.']) if (text.startsWith(prefix, host - prefix.length)) host -= prefix.length;
  for (const scheme of ['https://', 'http://']) if (text.startsWith(scheme, host - scheme.length)) return host - scheme.length;
  return host;
}

const FORMAT_DETECTORS: readonly PatternDetector[] = [
  {
    kind: 'openai-api-key',
    keywords: ['sk-'],
    // The pattern's own look behind, checked before it runs: `sk-sk-sk-…` would otherwise cost a regex call each.
    startsFrom: (text, at) => (at > 0 && isTokenCharOrDash(text.charCodeAt(at - 1)) ? -1 : at),
    pattern: /(?<![A-Za-z0-9_-])sk-(?:(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20,}|[A-Za-z0-9]{32,}(?![A-Za-z0-9_-]))/g,
    redact: keepWhen((s) => hasDigitAndLetter(s.slice(3)), 'openai-api-key'),
  },
  // With its scheme or without (`hooks.slack.com/services/…` pasted from a config).
  {
    kind: 'slack-webhook',
    keywords: ['hooks.slack.com'],
    startsFrom: (_text, at) => [at - 'https://'.length, at - 'http://'.length, at],
    pattern: /(?<![A-Za-z0-9_.-])(?:https?:\/\/)?hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/-]+/g,
  },
  // Discord's webhooks: the URL holds the webhook's id and its token.
  {
    kind: 'discord-webhook',
    keywords: ['/api/webhooks/'],
    startsFrom: discordWebhookStart,
    pattern: /(?<![A-Za-z0-9_.-])(?:https?:\/\/)?(?:(?:ptb|canary)\.)?discord(?:app)?\.com\/api\/webhooks\/\d{15,21}\/[A-Za-z0-9_-]{40,100}(?![A-Za-z0-9_-])/g,
  },
  // The same webhook as `curl -v` prints it in the request line: the path alone.
  { kind: 'slack-webhook', keywords: ['/services/T'], pattern: /(?<![A-Za-z0-9_/-])\/services\/T[A-Z0-9]{6,12}\/B[A-Z0-9]{6,12}\/[A-Za-z0-9]{20,32}(?![A-Za-z0-9])/g },
  {
    kind: 'jwt',
    keywords: ['eyJ', 'eyI'],
    pattern: /(?<![A-Za-z0-9_-])(ey[JI][A-Za-z0-9_-]{7,})\.([A-Za-z0-9_-]{2,})\.([A-Za-z0-9_-]*)(?![A-Za-z0-9_-])/g,
    redact: (m) => (isJwtHeader(m[1] ?? '') ? { text: redacted('jwt'), kind: 'jwt' } : undefined),
  },
  {
    kind: 'authorization',
    keywords: ['Bearer'],
    pattern: /(?<![A-Za-z0-9_-])(Bearer[ \t]+)([A-Za-z0-9._~+/-]{20,}=*)/g,
    redact: keepPrefix('authorization'),
  },
  {
    // aws_secret_access_key = …, "SecretAccessKey": "…", secret-key: …, `aws configure set aws_secret_access_key …`
    kind: 'aws-secret-access-key',
    keywords: ['secret'],
    ignoreCase: true,
    startsFrom: (text, at, end) => (followedByKeyWord(text, end) ? [at - 'aws_'.length, at - 'aws'.length, at] : -1), // -1, not [], where none: no list made and walked for most
    pattern: /(?<![A-Za-z0-9_])((?:aws_?)?secret[_-]?(?:access[_-]?)?key["']?(?:[ \t]*[:=][ \t]*["']?|[ \t]+))([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/gi,
    redact: keepPrefix('aws-secret-access-key'),
  },
];

/** The formats above, each leaving placeholders alone: `ghp_xxxx…`, `AKIAXXXXXXXXXXXXXXXX`, `AKIA…EXAMPLE`. */
export const TOKEN_FORMAT_DETECTORS: readonly PatternDetector[] = FORMAT_DETECTORS.map((detector) => {
  const redact = detector.redact ?? ((): Redaction => ({ text: redacted(detector.kind), kind: detector.kind }));
  return { ...detector, redact: (m: RegExpExecArray) => (isPlaceholderToken(m[0], 0) ? undefined : redact(m)) };
});

const URL_USERINFO = /([A-Za-z][A-Za-z0-9+.-]{0,30}:\/\/[^\s:@/?#'"[\]]{0,256}:)([^\s@/?#'"]{1,256})(?=@)/y;
/** A scheme's characters (letters, digits, `+ - .`) by character code, below 128: a table, as a chain of comparisons mispredicts. */
const SCHEME_CHARACTER = Uint8Array.from({ length: 128 }, (_, c) => Number((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 43 || c === 45 || c === 46));
const isSchemeChar = (c: number): boolean => c < 128 && SCHEME_CHARACTER[c] === 1; // before the text, c is NaN
const isLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/** The longest user and password URL_USERINFO takes, with the `:` between them. */
const MAX_USERINFO = 256 + 1 + 256;

/** Whether an `@` ends the authority part starting at `from` soon enough to close a URL_USERINFO match: most URLs have none, and this is cheaper than the regex. */
function userinfoEndsAfter(text: string, from: number): boolean {
  for (let i = from, stop = Math.min(text.length, from + MAX_USERINFO + 1); i < stop; i++) {
    const c = text.charCodeAt(i);
    if (c === 64) return true; // @
    if (c === 32 || c === 9 || c === 10 || c === 13 || c === 47 || c === 63 || c === 35 || c === 39 || c === 34) return false; // a blank, a line break, / ? # ' "
  }
  return false;
}

/**
 * scheme://user:password@host (the user may be empty: redis://:password@host): keeps the user
 * and the host; placeholder pairs (`user:password`, `<user>:<pass>`, `${USER}:${PASS}`, `admin:admin`) stay. Found from each `://`, which is rare, rather than tried at every word.
 */
export function scanUrlPasswords(text: string, schemeEnds: KeywordHits): Replacement[] {
  const out: Replacement[] = [];
  for (const at of schemeEnds.starts) {
    // Most URLs hold no user: that is looked at first.
    if (!userinfoEndsAfter(text, at + 3)) continue;
    let start = at;
    while (start > 0 && at - start < 31 && isSchemeChar(text.charCodeAt(start - 1))) start--;
    if ((start > 0 && isSchemeChar(text.charCodeAt(start - 1))) || !isLetter(text.charCodeAt(start))) continue;
    if (out.length > 0 && start < (out[out.length - 1] as Replacement).end) continue;
    URL_USERINFO.lastIndex = start;
    const m = URL_USERINFO.exec(text);
    if (!m) continue;
    const user = (m[1] as string).slice((m[1] as string).indexOf('://') + 3, -1);
    if (isPlaceholderPair(user, m[2] as string)) continue;
    out.push({ start, end: start + m[0].length, text: `${m[1] as string}${redacted('url-password')}`, kind: 'url-password' });
  }
  return out;
}

/**
 * Tokens made of an app's numeric id and its secret, joined by a separator: a Telegram bot token
 * (`<bot id>:A<34 characters>`, in prose, in inline code, after `/bot` in an API URL) and a
 * Facebook app access token (`<app id>|<app secret>`, `|` also written `%7C`). Both are found
 * from their separator, and only where digits stand right before it.
 */
import { redacted, type PatternDetector, type Redaction } from './redaction';

const isDigit = (c: number): boolean => c >= 48 && c <= 57;

/** Where the run of up to `max` digits ending at `end` starts, or -1 when it has fewer than `min`. */
function digitsBefore(text: string, end: number, min: number, max: number): number {
  let start = end;
  while (start > 0 && end - start <= max && isDigit(text.charCodeAt(start - 1))) start--;
  return end - start >= min && end - start <= max ? start : -1;
}

/** The bot id's start, or `/bot` before it in `https://api.telegram.org/bot<token>/…`. */
function telegramStart(text: string, colon: number): number {
  const digits = digitsBefore(text, colon, 5, 16);
  if (digits === -1) return -1;
  return text.startsWith('bot', digits - 3) ? digits - 3 : digits;
}

/** Facebook's name (`facebook`, `Facebook`, `FB_`, `fb_app`, `fbToken`) on the same line, within this many characters of the token. */
const FACEBOOK_NEAR = 400;
const FACEBOOK_NAME = /facebook|(?<![A-Za-z0-9])(?:fb|FB|Fb)(?![a-z0-9])/i;

function facebookOnLine(text: string, start: number, end: number): boolean {
  const lineStart = text.lastIndexOf('\n', start) + 1;
  const lineEnd = text.indexOf('\n', end);
  const from = Math.max(lineStart, start - FACEBOOK_NEAR);
  const to = Math.min(lineEnd === -1 ? text.length : lineEnd, end + FACEBOOK_NEAR);
  return FACEBOOK_NAME.test(text.slice(from, start)) || FACEBOOK_NAME.test(text.slice(end, to));
}

/** An app secret, not a word: letters with digits, or both cases. */
const looksRandom = (value: string): boolean => /[A-Za-z]/.test(value) && (/\d/.test(value) || (/[a-z]/.test(value) && /[A-Z]/.test(value)));

export const ID_SECRET_DETECTORS: readonly PatternDetector[] = [
  {
    kind: 'telegram-bot-token',
    keywords: [':A'],
    startsFrom: (text, at) => telegramStart(text, at),
    // Exactly 34 characters after `A`: a longer run (`…-some-other-thing`) is something else.
    pattern: /(?<![A-Za-z0-9_-])(bot)?(\d{5,16}:A[A-Za-z0-9_-]{34})(?![A-Za-z0-9_-])/g,
    minEntropy: 3.5,
    // A digit in the body: 34 random characters hold one all but 3 times in 1,000; a word (`:AbstractRequestHandler…`) holds none.
    redact: (m): Redaction | undefined => (/\d/.test((m[2] as string).slice((m[2] as string).indexOf(':'))) ? { text: `${m[1] ?? ''}${redacted('telegram-bot-token')}`, kind: 'telegram-bot-token' } : undefined),
  },
  {
    kind: 'facebook-access-token',
    keywords: ['|', '%7C', '%7c'],
    startsFrom: (text, at) => digitsBefore(text, at, 15, 16),
    pattern: /(?<![A-Za-z0-9_-])\d{15,16}(?:\||%7[Cc])([A-Za-z0-9_-]{27,40})(?![A-Za-z0-9_-])/g,
    redact: (m): Redaction | undefined =>
      looksRandom(m[1] ?? '') && facebookOnLine(m.input, m.index, m.index + m[0].length) ? { text: redacted('facebook-access-token'), kind: 'facebook-access-token' } : undefined,
  },
];

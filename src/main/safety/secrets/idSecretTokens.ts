/**
 * Tokens made of an app's numeric id and its secret, joined by a separator: a Telegram bot token
 * (`<bot id>:A<34 characters>`, in prose, in inline code, after `/bot` in an API URL), found from
 * its `:A` where digits stand right before it; and a Facebook app access token
 * (`<app id>|<app secret>`, `|` also written `%7C`), looked for only near Facebook's name on the
 * same line (the shape alone is too common: `|` is a pipe and a table's border).
 */
import type { KeywordHits } from './keywordScan';
import { redacted, type PatternDetector, type Redaction, type Replacement } from './redaction';

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

/** An app secret, not a word: letters with digits, or both cases. */
const looksRandom = (value: string): boolean => /[A-Za-z]/.test(value) && (/\d/.test(value) || (/[a-z]/.test(value) && /[A-Z]/.test(value)));

/** How far from Facebook's name (`facebook`, `FB_`, `fb_app`) on its line an app token is looked for. */
const FACEBOOK_NEAR = 400;
const FACEBOOK_APP_TOKEN = /(?<![A-Za-z0-9_-])\d{15,16}(?:\||%7[Cc])([A-Za-z0-9_-]{27,40})(?![A-Za-z0-9_-])/g;
/** The words that name Facebook, found by the keyword pass: `facebook` in any case, `fb` before `_`, `-`, `.` or a blank. */
export const FACEBOOK_KEYWORDS = ['facebook', 'fb_', 'fb-', 'fb.', 'fb '];

/** Facebook app access tokens (`<app id>|<app secret>`) on the lines where Facebook is named, near the name. */
export function scanFacebookAppTokens(text: string, names: KeywordHits): Replacement[] {
  const out: Replacement[] = [];
  let scannedTo = 0;
  for (const at of names.starts) {
    // The stretch around the name, within its line; each character is looked at once: a second name on the same stretch continues where the first stopped.
    let from = at;
    while (from > 0 && at - from < FACEBOOK_NEAR && from > scannedTo && text.charCodeAt(from - 1) !== 10) from--;
    let to = at;
    while (to < text.length && to - at < FACEBOOK_NEAR && text.charCodeAt(to) !== 10) to++;
    from = Math.max(from, scannedTo);
    if (from >= to) continue;
    // One character more on each side, for the pattern's look behind and look ahead.
    const windowStart = Math.max(0, from - 1);
    const window = text.slice(windowStart, to + 1);
    FACEBOOK_APP_TOKEN.lastIndex = from - windowStart;
    for (let m = FACEBOOK_APP_TOKEN.exec(window); m !== null; m = FACEBOOK_APP_TOKEN.exec(window)) {
      const start = windowStart + m.index;
      const end = start + m[0].length;
      if (end > to) break;
      if (looksRandom(m[1] as string)) out.push({ start, end, text: redacted('facebook-access-token'), kind: 'facebook-access-token' });
    }
    scannedTo = Math.max(scannedTo, to);
  }
  return out;
}

/**
 * A bot id and `:A` with a body of the wrong length, or an id of the wrong length
 * (`7392:Aylsppdk…`, `…:A-some-other-thing-…`): written to look like a bot token, not issued as
 * one. A name above it does not make it a secret.
 */
export const isMisshapenTelegramToken = (v: string): boolean =>
  v.charCodeAt(0) >= 48 && v.charCodeAt(0) <= 57 && /^\d+:A[A-Za-z0-9_-]+$/.test(v) && !/^\d{5,16}:A[A-Za-z0-9_-]{34}$/.test(v);

export const TELEGRAM_BOT_TOKEN: PatternDetector = {
  kind: 'telegram-bot-token',
  keywords: [':A'],
  startsFrom: (text, at) => telegramStart(text, at),
  // Exactly 34 characters after `A`: a longer run (`…-some-other-thing`) is something else.
  pattern: /(?<![A-Za-z0-9_-])(bot)?(\d{5,16}:A[A-Za-z0-9_-]{34})(?![A-Za-z0-9_-])/g,
  minEntropy: 3.5,
  // A digit in the body: 34 random characters hold one all but 3 times in 1,000; a word (`:AbstractRequestHandler…`) holds none.
  redact: (m): Redaction | undefined => (/\d/.test((m[2] as string).slice((m[2] as string).indexOf(':'))) ? { text: `${m[1] ?? ''}${redacted('telegram-bot-token')}`, kind: 'telegram-bot-token' } : undefined),
};

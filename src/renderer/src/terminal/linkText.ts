/**
 * What a terminal link's visible text claims, and whether its target keeps that claim.
 *
 * An OSC 8 hyperlink has two parts a program chooses freely: the text on screen and the
 * target it opens. Tandem asks before opening only when the text *names a destination* (a URL,
 * a host name, an e-mail address) that the target is not: "https://bank.example" pointing at
 * evil.example. Text that names no place ("docs", "PR #12", "-Wunused-variable") makes no
 * promise to break; the hover tip shows where it goes, and asking on every such link would
 * only teach the user to click through. "Same destination" is read loosely on the path (a
 * shortened "github.com/…/README.md" is fine) and strictly on what decides who answers: the
 * host (a leading "www." aside), a port the text names, https the text promises, the mail
 * address.
 */

/** Brackets, quotes and sentence punctuation around the text, not part of what it names. */
const LEADING_NOISE = /^[\s"'`‘“«<([{]+/u;
const TRAILING_NOISE = /[\s"'`’”»>)\]}.,;:!?…]+$/u;
const WITH_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
const MAILTO = /^mailto:/i;
const EMAIL_ADDRESS = /^[^\s@/:]+@[^\s@/:]+\.[^\s@/:]+$/u;
/** A host name with a top-level domain (letters, or punycode), an optional port and path. */
const HOST_NAME = /^(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+(?:\p{L}{2,}|xn--[a-z0-9-]+)(?::\d{1,5})?(?:[/?#]\S*)?$/iu;
const IPV4_ADDRESS = /^\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?(?:[/?#]\S*)?$/;

interface Claim {
  url: URL;
  /** The text wrote a scheme ("https://…"), so it promises one. */
  schemeGiven: boolean;
}

/** The destination the text names, if it names one. */
export function claimedDestination(text: string): Claim | undefined {
  const candidate = text.trim().replace(LEADING_NOISE, '').replace(TRAILING_NOISE, '');
  if (!candidate || /\s/.test(candidate)) return undefined;
  if (WITH_SCHEME.test(candidate) || MAILTO.test(candidate)) return parse(candidate, true);
  if (EMAIL_ADDRESS.test(candidate)) return parse(`mailto:${candidate}`, true);
  if (HOST_NAME.test(candidate) || IPV4_ADDRESS.test(candidate)) return parse(`http://${candidate}`, false);
  return undefined;
}

function parse(url: string, schemeGiven: boolean): Claim | undefined {
  try {
    return { url: new URL(url), schemeGiven };
  } catch {
    return undefined;
  }
}

/** True when the link's text names a destination and its target goes somewhere else. */
export function linkTextDiffers(text: string, target: string): boolean {
  const claim = claimedDestination(text);
  if (!claim) return false;
  let real: URL;
  try {
    real = new URL(target);
  } catch {
    return true;
  }
  const claimed = claim.url;
  if (claimed.protocol === 'mailto:') return real.protocol !== 'mailto:' || mailAddress(claimed) !== mailAddress(real);
  if (!isWeb(real) || !isWeb(claimed)) return true;
  if (claim.schemeGiven && claimed.protocol === 'https:' && real.protocol !== 'https:') return true;
  if (withoutWww(claimed.hostname) !== withoutWww(real.hostname)) return true;
  return claimed.port !== '' && claimed.port !== real.port;
}

function isWeb(url: URL): boolean {
  return url.protocol === 'http:' || url.protocol === 'https:';
}

function withoutWww(hostname: string): string {
  return hostname.replace(/^www\./, '');
}

function mailAddress(url: URL): string {
  try {
    return decodeURIComponent(url.pathname).trim().toLowerCase();
  } catch {
    return url.pathname.toLowerCase();
  }
}

/**
 * A link's target as the user should read it: parsed and re-serialised, so a look-alike
 * host shows as punycode (xn--…) and nothing hides in odd spacing or encoding.
 */
export function displayTarget(target: string): string {
  try {
    return new URL(target).href;
  } catch {
    return target;
  }
}

/** What xterm tells about a link's place: 1-based cells, both ends included, one row per link part. */
export interface LinkRange {
  start: { x: number; y: number };
  end: { x: number; y: number };
}

/** The little of xterm's buffer the text is read from (`terminal.buffer.active`). */
export interface LinkBuffer {
  getLine(y: number): { isWrapped: boolean; translateToString(trimRight?: boolean, startColumn?: number, endColumn?: number): string } | undefined;
}

/** How many wrapped rows on each side are read to complete a link's text. */
const MAX_WRAPPED_ROWS = 16;

/**
 * The text on screen under a link. xterm reports a link that wraps as one part per row; a
 * part touching the row's edge is joined with the unbroken text that continues it on the
 * wrapped rows before and after, so a long URL is read whole, not as "https://bank.exa".
 */
export function visibleLinkText(buffer: LinkBuffer, cols: number, range: LinkRange): string {
  let text = '';
  for (let y = range.start.y; y <= range.end.y; y++) {
    const from = y === range.start.y ? range.start.x - 1 : 0;
    const to = y === range.end.y ? range.end.x : cols;
    text += buffer.getLine(y - 1)?.translateToString(false, from, to) ?? '';
  }
  if (range.start.x === 1) {
    for (let row = range.start.y - 1, steps = 0; steps < MAX_WRAPPED_ROWS && buffer.getLine(row)?.isWrapped; row--, steps++) {
      const before = buffer.getLine(row - 1)?.translateToString(false) ?? '';
      const tail = /\S+$/.exec(before)?.[0] ?? '';
      text = tail + text;
      if (tail.length < before.length) break;
    }
  }
  if (range.end.x >= cols) {
    for (let row = range.end.y, steps = 0; steps < MAX_WRAPPED_ROWS && buffer.getLine(row)?.isWrapped; row++, steps++) {
      const after = buffer.getLine(row)?.translateToString(true) ?? '';
      const head = /^\S+/.exec(after)?.[0] ?? '';
      text += head;
      if (head.length < cols) break;
    }
  }
  return text.trim();
}

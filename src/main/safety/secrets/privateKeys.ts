/**
 * PEM private key blocks (RSA, EC, PKCS#8, OpenSSH, PGP, encrypted), whole or cut off, plain,
 * inside JSON strings (`\n` escapes) or base64-encoded once more (Kubernetes secrets,
 * kubeconfig `client-key-data`). Certificates and public keys are left alone.
 */
import type { KeywordHits } from './keywordScan';
import { redacted, type Redaction, type Replacement } from './redaction';

const BEGIN = '-----BEGIN ';
const END = '-----END ';
const PEM_BEGIN = /-----BEGIN (?:[A-Z0-9]+ ){0,4}PRIVATE KEY(?: BLOCK)?-----/y;
const PEM_END = /-----END (?:[A-Z0-9]+ ){0,4}PRIVATE KEY(?: BLOCK)?-----/y;
/** What the keyword pass looks for on behalf of `scanPrivateKeys`. */
export const PRIVATE_KEY_MARKS: readonly string[] = [BEGIN, END];
/** A line of a key body: base64, or an RFC 1421 header such as `Proc-Type: 4,ENCRYPTED`. */
const KEY_BODY_LINE = /^(?:[A-Za-z0-9+/=]*|[A-Za-z-]{1,40}: [^\n]*)\r?$/;
const BASE64_LINE = /^[A-Za-z0-9+/=]{16,}\r?$/;
/** A 16 kbit RSA key is about 200 lines (13 KB) of base64; a key block is never longer. */
const MAX_KEY_LINES = 256;
const MAX_KEY_BLOCK_CHARS = 64 * 1024;

/** The matches of `marker` (sticky) where `word` stands, as a search of the whole text finds them. */
function markersAt(marker: RegExp, word: string, text: string, hits: KeywordHits): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let searchFrom = 0;
  for (const at of hits.starts) {
    if (at < searchFrom || !text.startsWith(word, at)) continue;
    marker.lastIndex = at;
    const m = marker.exec(text);
    if (m === null) continue;
    out.push({ start: at, end: at + m[0].length });
    searchFrom = at + m[0].length;
  }
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

/** The smallest body a key block has: a 256-bit EC key is about 160 base64 characters, a body cut to one line 64. */
const MIN_KEY_BODY = 40;

/** How many base64 characters stand between `from` and `to` (at most MIN_KEY_BODY are counted). */
function keyMaterialIn(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to && n < MIN_KEY_BODY; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 43 || c === 47) n++;
  }
  return n;
}

/**
 * PEM private key blocks, in linear time however many markers the text holds: a whole block
 * (BEGIN … END); a block whose end is missing (output cut off): the BEGIN line and the body
 * lines under it; a block whose start scrolled away: the base64 lines above an END line.
 */
export function scanPrivateKeys(text: string, marks: KeywordHits): Replacement[] {
  if (marks.starts.length === 0) return [];
  const begins = markersAt(PEM_BEGIN, BEGIN, text, marks);
  const ends = markersAt(PEM_END, END, text, marks);
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
    // A block with no key in it (`…`, `<your key here>`, a BEGIN line quoted in code) is not a secret.
    if (keyMaterialIn(text, begin.end, stop) < MIN_KEY_BODY) continue;
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

/** `-----BEGIN ` in base64 at the start of an encoded block: `LS0tLS1CRUdJTi`. */
export const BASE64_PEM = /(?<![A-Za-z0-9+/])LS0tLS1CRUdJTi[A-Za-z0-9+/]{40,}={0,2}/g;

/** A base64 run that decodes to a private key block, not to a certificate or public key. */
export function redactBase64PrivateKey(m: RegExpExecArray): Redaction | undefined {
  const head = Buffer.from(m[0].slice(0, 96), 'base64').toString('latin1');
  return /^-----BEGIN (?:[A-Z0-9]+ ){0,4}PRIVATE KEY/.test(head) ? { text: redacted('private-key'), kind: 'private-key' } : undefined;
}

/**
 * The credential of an HTTP `Authorization` (or `Proxy-Authorization`) header, in every shape it
 * is written: `Authorization: Bearer …` in `curl -v`, `-H 'Authorization: Api-Token …'`,
 * `"Authorization": "SSWS …"` in JSON, `headers["Authorization"] = "Token …"`,
 * `setRequestProperty("Authorization", "Basic …")`. The scheme word (Basic, Bearer, Token,
 * Api-Key, SSWS, FlyV1 …) is kept; what follows it is redacted. A scheme with parameters
 * (`Digest username="…", response="…"`, `AWS4-HMAC-SHA256 Credential=…, Signature=…`) has all of
 * its parameters redacted.
 */
import type { KeywordHits } from './keywordScan';
import { redacted, type Replacement } from './redaction';
import { isPlaceholderValue } from './secretNames';

/** `authorization`, then how the value is attached: `: `, `=`, `"]  = "`, `", "`. */
const HEADER = /(?<![A-Za-z0-9_-])(?:proxy-)?authorization(?:(["'])\]?[ \t]*(?:[:=]|,)|[ \t]*[:=])[ \t]*(["']?)/giy;
const SCHEME = /^([A-Za-z][A-Za-z0-9_.-]{0,30})[ \t]+(?=\S)/;
const PARAMETERS = /^[A-Za-z][A-Za-z0-9_-]*=/;
const CREDENTIAL = /^[^\s"'`,;]{6,4096}/;

/** Whether a credential looks like one rather than a word: a digit, or long and mixed-case. */
const looksLikeCredential = (value: string): boolean => /\d/.test(value) || (value.length >= 16 && /[a-z]/.test(value) && /[A-Z]/.test(value));

export function scanAuthorizationHeaders(text: string, names: KeywordHits): Replacement[] {
  const out: Replacement[] = [];
  let searchFrom = 0;
  for (const nameAt of names.starts) {
    if (nameAt < searchFrom) continue;
    searchFrom = nameAt + 'authorization'.length;
    let start = nameAt;
    if (start >= 6 && /^proxy-$/i.test(text.slice(start - 6, start))) start -= 6;
    HEADER.lastIndex = start;
    const h = HEADER.exec(text);
    if (!h) continue;
    const keyQuote = h[1];
    const valueQuote = h[2] ?? '';
    if (keyQuote !== undefined && valueQuote === '') continue; // `"Authorization", value`: code, not a literal
    const valueStart = start + h[0].length;
    let lineEnd = text.indexOf('\n', valueStart);
    if (lineEnd === -1) lineEnd = text.length;
    if (text[lineEnd - 1] === '\r') lineEnd--;
    // The value ends at its own closing quote, or at the quote the whole header was wrapped in (`-H "Authorization: …"`).
    const outerQuote = valueQuote || (text[start - 1] === '"' || text[start - 1] === "'" ? (text[start - 1] as string) : '');
    let valueEnd = lineEnd;
    if (outerQuote) {
      const close = text.lastIndexOf(outerQuote, lineEnd - 1);
      if (close >= valueStart) valueEnd = close;
    }
    const value = text.slice(valueStart, valueEnd);
    const scheme = SCHEME.exec(value);
    let credentialAt = valueStart;
    let credential: string | undefined;
    if (scheme) {
      const rest = value.slice(scheme[0].length);
      credentialAt += scheme[0].length;
      if (PARAMETERS.test(rest)) credential = rest.replace(/[ \t]+$/, '');
      else credential = CREDENTIAL.exec(rest)?.[0];
    } else {
      credential = CREDENTIAL.exec(value)?.[0];
    }
    if (credential === undefined || isPlaceholderValue(credential) || credential.startsWith('[REDACTED:')) continue;
    if (!PARAMETERS.test(credential) && !looksLikeCredential(credential)) continue;
    if (out.length > 0 && start < (out[out.length - 1] as Replacement).end) continue;
    const end = credentialAt + credential.length;
    out.push({ start, end, text: `${text.slice(start, credentialAt)}${redacted('authorization')}`, kind: 'authorization' });
    searchFrom = end;
  }
  return out;
}

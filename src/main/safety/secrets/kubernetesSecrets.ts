/**
 * The values of a Kubernetes `Secret`, whatever their keys are called: every entry under
 * `data:` (base64) and `stringData:` (plain) of a YAML document whose `kind:` is `Secret`
 * (`kubectl get secret -o yaml`, a manifest, `helm template`), and of its JSON form
 * (`kubectl get secret -o json`).
 */
import type { KeywordHits } from './keywordScan';
import { redacted, type Replacement } from './redaction';
import { isPlaceholderValue } from './secretNames';

/** `data:` or `stringData:` alone on its line (YAML), or `"data": {` (JSON). */
const DATA_KEY = /^([ \t]*(?:- )?)(data|stringData):[ \t]*\r?$|(["'])(data|stringData)\3[ \t]*:[ \t]*\{/gm;
/** `kind: Secret` in any case, quoted or not; not `ExternalSecret`, `SecretStore`, `SopsSecret`. */
const KIND_SECRET = /(?:^|[{,\s])["']?kind["']?[ \t]*:[ \t]*["']?secret["']?[ \t]*(?:,|\r?$)/im;
/** Where a Secret is: a literal first, so the search is fast; `data:` keys are looked for only near one. */
const KIND_SECRET_AT = /kind["']?[ \t]*:[ \t]*["']?secret(?![A-Za-z0-9_-])/iy;
/** A base64 value (what `data:` holds): a secret even when it looks like a path (`/2HQ7…`) or a word. */
const BASE64_VALUE = /^[A-Za-z0-9+/]{8,}={0,2}$/;
/** Padded base64 too short to hold a secret: it decodes to under 4 characters (`YmFyCg==` is "bar" and a line break). */
const isTinyBase64 = (value: string): boolean => value.length <= 8 && /^[A-Za-z0-9+/]{2,7}={1,2}$/.test(value) && Buffer.from(value, 'base64').toString('latin1').trim().length < 4;

/** A value under `data:` or `stringData:`: base64 of at least 4 characters, or any other value that is no placeholder. */
const isSecretValue = (value: string): boolean => value !== '' && !isTinyBase64(value) && (BASE64_VALUE.test(value) || !isPlaceholderValue(value));

/** How far around `data:` the document's `kind: Secret` may be. */
const DOCUMENT_WINDOW = 4096;
const YAML_ENTRY = /^([ \t]+)([A-Za-z0-9_.-]{1,253}):[ \t]*(.*?)[ \t]*\r?$/;
const JSON_ENTRY = /[ \t\r\n]*(["'])([A-Za-z0-9_.-]{1,253})\1[ \t]*:[ \t]*"((?:\\.|[^"\\\r\n]){0,65536})"[ \t]*,?/y;

/** The document around `at`: between the `---` separators before and after it, at most DOCUMENT_WINDOW each way. */
function documentAround(text: string, at: number): string {
  const from = Math.max(0, at - DOCUMENT_WINDOW);
  const to = Math.min(text.length, at + DOCUMENT_WINDOW);
  const before = text.slice(from, at);
  const after = text.slice(at, to);
  const sepBefore = before.lastIndexOf('\n---');
  const sepAfter = after.indexOf('\n---');
  return before.slice(sepBefore === -1 ? 0 : sepBefore) + (sepAfter === -1 ? after : after.slice(0, sepAfter));
}

function yamlEntries(text: string, lineStart: number, keyIndent: number, out: Replacement[]): void {
  let at = lineStart;
  while (at < text.length) {
    let end = text.indexOf('\n', at);
    if (end === -1) end = text.length;
    const line = text.slice(at, end);
    const m = YAML_ENTRY.exec(line);
    if (!m || (m[1] as string).length <= keyIndent) {
      if (line.trim() === '') {
        at = end + 1;
        continue;
      }
      return;
    }
    const indent = (m[1] as string).length;
    let value = m[3] as string;
    const valueAt = at + line.indexOf(value, indent + (m[2] as string).length + 1);
    let valueEnd = valueAt + value.length;
    // A block scalar (`key: |`): the more indented lines below are the value.
    if (/^[|>][-+]?\d?$/.test(value)) {
      let next = end + 1;
      let blockEnd = -1;
      let blockStart = -1;
      while (next < text.length) {
        let nextEnd = text.indexOf('\n', next);
        if (nextEnd === -1) nextEnd = text.length;
        const l = text.slice(next, nextEnd);
        const lead = /^[ \t]*/.exec(l)?.[0].length ?? 0;
        if (l.trim() !== '' && lead <= indent) break;
        if (l.trim() !== '') {
          if (blockStart === -1) blockStart = next + lead;
          blockEnd = nextEnd;
        }
        next = nextEnd + 1;
      }
      if (blockStart !== -1) out.push({ start: blockStart, end: blockEnd, text: redacted('secret'), kind: 'secret' });
      at = next;
      continue;
    }
    const quote = value[0] === '"' || value[0] === "'" ? value[0] : '';
    if (quote && value.endsWith(quote) && value.length >= 2) {
      value = value.slice(1, -1);
      valueEnd--;
    }
    const start = valueAt + quote.length;
    if (isSecretValue(value)) out.push({ start, end: valueEnd, text: redacted('secret'), kind: 'secret' });
    at = end + 1;
  }
}

function jsonEntries(text: string, from: number, out: Replacement[]): void {
  JSON_ENTRY.lastIndex = from;
  let m: RegExpExecArray | null;
  while ((m = JSON_ENTRY.exec(text)) !== null) {
    const value = m[3] as string;
    const end = m.index + m[0].lastIndexOf('"');
    if (isSecretValue(value)) out.push({ start: end - value.length, end, text: redacted('secret'), kind: 'secret' });
  }
}

export function scanKubernetesSecrets(text: string, kinds: KeywordHits): Replacement[] {
  const out: Replacement[] = [];
  // Only the documents that say `kind: Secret` are searched for `data:` keys.
  let searchedTo = 0;
  let matchedTo = 0;
  for (const at of kinds.starts) {
    if (at < matchedTo) continue;
    KIND_SECRET_AT.lastIndex = at;
    const k = KIND_SECRET_AT.exec(text);
    if (k === null) continue;
    matchedTo = at + k[0].length;
    const from = Math.max(searchedTo, k.index - DOCUMENT_WINDOW);
    const to = Math.min(text.length, k.index + DOCUMENT_WINDOW);
    if (from < to) dataEntries(text, from, to, out);
    searchedTo = Math.max(searchedTo, to);
  }
  return out.sort((a, b) => a.start - b.start).filter((r, i, all) => i === 0 || r.start >= (all[i - 1] as Replacement).end);
}

function dataEntries(text: string, from: number, to: number, out: Replacement[]): void {
  // The keys are searched in the window only (a search over the whole text would cost the whole text).
  const window = text.slice(from, to);
  DATA_KEY.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = DATA_KEY.exec(window)) !== null) {
    const keyAt = from + m.index;
    if (!KIND_SECRET.test(documentAround(text, keyAt))) continue;
    const afterKey = keyAt + m[0].length;
    if (m[2] !== undefined) {
      const lineEnd = text.indexOf('\n', afterKey);
      if (lineEnd === -1) break;
      const prefix = m[1] as string;
      yamlEntries(text, lineEnd + 1, prefix.length, out);
    } else {
      jsonEntries(text, afterKey, out);
    }
  }
}

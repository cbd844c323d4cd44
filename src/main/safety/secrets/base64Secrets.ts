/**
 * Secrets wrapped in base64: a JWT, a `.env` file, a `user:password` pair or a JSON document with
 * a password, base64-encoded once (Kubernetes `data:` values, `.dockerconfigjson`, env files that
 * store base64, a JWT encoded again). Each run of base64 the keyword pass points at is decoded
 * once; when the decoded text holds a secret by the other detectors, or is itself a
 * `user:password` pair, the encoded run is redacted whole.
 *
 * Most runs are not looked at twice: base64 of printable ASCII starts every group of four
 * characters with one of `I`–`Z`, `a`–`f` (the top six bits of a byte from 0x20 to 0x7e; `C` and
 * `D` for a tab or a line end), which a random run of 20 characters does in under one case in a
 * hundred; hashes and ids (hex, a UUID) fail it at once. Markup decoded this way (an inline SVG
 * icon) is not searched again.
 */
import type { KeywordHits, Locator } from './keywordScan';
import { redacted, type Replacement, type ScanDetector } from './redaction';
import { isPlaceholderValue } from './secretNames';

/** The shortest run decoded: 20 characters hold 15 bytes (`user:Summer2024!`). */
const MIN_RUN = 20;
/** The longest: a kubeconfig or a `.dockerconfigjson` fits, a base64 file dump is not decoded. */
const MAX_RUN = 16 * 1024;

const isBase64Character = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 43 || c === 47 || c === 45 || c === 95;

/** 1 for the characters that may start a group of four encoding printable ASCII, a tab or a line end: `C`, `D`, `I`–`Z`, `a`–`f`. */
const STARTS_PRINTABLE_GROUP = new Uint8Array(128);
for (let c = 0; c < 128; c++) STARTS_PRINTABLE_GROUP[c] = Number((c >= 73 && c <= 90) || (c >= 97 && c <= 102) || c === 67 || c === 68);
/** A table lookup: comparisons, where most runs fail the test, cost ten times as much (measured). */
const startsPrintableGroup = (c: number): boolean => STARTS_PRINTABLE_GROUP[c] === 1;

/**
 * Each run of token characters the keyword pass found whose first five groups of four (the 20
 * characters of the shortest run it notes) may encode printable text: all but about one run in a
 * hundred are passed over while they are in the cache. The groups are counted from the run's
 * start; a run whose base64 began before a `+` or `/` is checked out of step and mostly passed
 * over, which printable text seldom gives (its base64 rarely holds `+` or `/`). Looking at the
 * character before the run to tell made this look five times as costly (measured), so it does not.
 */
const locateRuns: Locator = {
  atKeyword: () => undefined,
  atTokenRuns: (text, runStarts, count, place) => {
    for (let r = 0; r < count; r++) {
      const runStart = runStarts[r] as number;
      if (!startsPrintableGroup(text.charCodeAt(runStart)) || !startsPrintableGroup(text.charCodeAt(runStart + 4)) || !startsPrintableGroup(text.charCodeAt(runStart + 8))) continue;
      if (!startsPrintableGroup(text.charCodeAt(runStart + 12)) || !startsPrintableGroup(text.charCodeAt(runStart + 16))) continue;
      place(runStart);
    }
  },
};

/** The run of base64 characters around `at`, padding included: [start, end). */
function runAround(text: string, at: number): [number, number] {
  let start = at;
  while (start > 0 && isBase64Character(text.charCodeAt(start - 1))) start--;
  RUN_REST.lastIndex = at;
  RUN_REST.test(text);
  return [start, RUN_REST.lastIndex];
}
/** The rest of a run from where it was found, padding included (a native search: runs are long). */
const RUN_REST = /[A-Za-z0-9+/_-]*={0,2}/y;

/** Decoded text of a base64 run (`end` past its padding) when it is all printable ASCII (tabs and line ends allowed), else undefined; every group of four is checked before anything is decoded. */
function decodePrintable(text: string, start: number, end: number): string | undefined {
  let bodyEnd = end;
  while (bodyEnd > start && text.charCodeAt(bodyEnd - 1) === 61) bodyEnd--;
  if ((bodyEnd - start) % 4 === 1) return undefined;
  for (let i = start; i < bodyEnd; i += 4) if (!startsPrintableGroup(text.charCodeAt(i))) return undefined;
  const bytes = Buffer.from(text.slice(start, bodyEnd), 'base64'); // Node reads the URL-safe alphabet too
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] as number;
    if (!((byte >= 0x20 && byte < 0x7f) || byte === 0x0a || byte === 0x0d || byte === 0x09)) return undefined;
  }
  return bytes.toString('latin1');
}

/** `user:password` on its own, with a password that is not a placeholder (`user:pass`, `test:test`). */
function isCredentialPair(decoded: string): boolean {
  const m = /^([A-Za-z0-9._@+-]{1,128}):([\x21-\x7e]{6,256})$/.exec(decoded);
  if (!m) return false;
  const user = m[1] as string;
  const password = m[2] as string;
  return password !== user && !isPlaceholderValue(password) && /[0-9!@#$%^&*+=?]/.test(password);
}

/** Whether a decoded run is being searched: what is decoded is not decoded again. */
let decoding = false;

/**
 * The detector. `findInner` runs the detector table over the decoded text, this detector
 * passing (what is decoded is not decoded again, so the cost stays linear). It must be the table's
 * last row: a search of decoded text overwrites the keyword scanner's hit lists, which the rows
 * after it would read. (Setting the outer hits aside instead, by swapping the scanner's lists,
 * made every scan 10% slower: V8 no longer treats the lists as constant.)
 */
export function base64SecretsDetector(findInner: (decoded: string) => readonly Replacement[]): ScanDetector {
  return {
    kind: 'base64-secret',
    keywords: [],
    locate: locateRuns,
    scan(text: string, places: KeywordHits): Replacement[] {
      if (decoding) return [];
      // A search of decoded text reuses the scanner's hit lists, where `places` lie: they are copied
      // first. Nothing else of the outer search is read after this detector, the table's last row.
      const starts = places.starts.slice();
      const found: Replacement[] = [];
      let coveredUntil = 0;
      for (let p = 0; p < starts.length; p++) {
        const at = starts[p] as number;
        if (at < coveredUntil) continue;
        const [start, end] = runAround(text, at);
        coveredUntil = end;
        if (end - start < MIN_RUN || end - start > MAX_RUN) continue;
        const decoded = decodePrintable(text, start, end);
        // Markup (an inline SVG icon, an HTML page: the most common base64 in output) holds no credential worth a second search.
        if (decoded === undefined || (decoded.charCodeAt(0) === 60 && /^<[A-Za-z?!]/.test(decoded))) continue;
        decoding = true;
        let inner: readonly Replacement[];
        try {
          inner = findInner(decoded);
        } finally {
          decoding = false;
        }
        const kind = inner.length > 0 ? (inner[0] as Replacement).kind : isCredentialPair(decoded) ? 'credentials' : undefined;
        if (kind !== undefined) found.push({ start, end, text: redacted(`base64-${kind}`), kind: `base64-${kind}` });
      }
      return found;
    },
  };
}

/**
 * curl's credentials: `-u user:password`, `--user`, `--proxy-user`, `-U`, however the shell
 * argument is quoted (`"user:pw"`, `kevin:'pw'`, `"{id}":"{secret}"`), also on a `\`-continued
 * line. With an empty password (`-u "token:"`) the user part is the credential, the way API
 * tokens are given to curl; with an empty user (`-u ":pw"`) the password is. Placeholder pairs
 * (`user:pass`, `$USER:$PASS`, `<user:password>`) are left alone (credentialPairs.ts).
 */
import { isPlaceholderPair, isPlaceholderPart } from './credentialPairs';
import type { KeywordHits } from './keywordScan';
import { REDACTED_PREFIX, redacted, type Replacement } from './redaction';

/** How far after `curl` its options are looked for, and over how many `\`-continued lines. */
const MAX_COMMAND = 1200;
const MAX_CONTINUED_LINES = 6;
const USER_OPTIONS = ['--proxy-user', '--user', '-u', '-U'];

const isTokenChar = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45;
const isBlank = (c: string | undefined): boolean => c === ' ' || c === '\t';
/** A blank or a line break: what stands before an option. */
const isBlankCode = (c: number): boolean => c === 32 || c === 9 || c === 10;
const isContinuation = (text: string, lineBreak: number): boolean => text[lineBreak - 1] === '\\' || (text[lineBreak - 1] === '\r' && text[lineBreak - 2] === '\\');

/** A shell word: its quoted and bare pieces joined, with the place in the text of each of its characters. A bare piece ends only at a blank: a password may hold `)`, `;` or `&` (unquoted, the shell would cut it there, but what is printed is redacted whole). */
interface ShellWord {
  chars: string;
  at: number[];
  end: number;
  /** A quote in it is not closed within the command. */
  unclosed: boolean;
}

function shellWord(text: string, from: number, limit: number): ShellWord {
  let chars = '';
  const at: number[] = [];
  let i = from;
  while (i < limit) {
    const c = text[i] as string;
    if (c === '"' || c === "'") {
      let k = i + 1;
      for (; k < limit && text[k] !== c; k++) {
        if (text[k] === '\n') return { chars, at, end: k, unclosed: true }; // a quote never closed on its line
        chars += text[k];
        at.push(k);
      }
      if (k >= limit) return { chars, at, end: k, unclosed: true };
      i = k + 1;
    } else if (isBlank(c) || c === '\n' || c === '\r' || (c === '\\' && (text[i + 1] === '\n' || text[i + 1] === '\r'))) {
      break;
    } else {
      chars += c;
      at.push(i);
      i++;
    }
  }
  return { chars, at, end: i, unclosed: false };
}

/** A value given alone (`-u "token:"`) is a token when it looks like one: letters and digits, or long and mixed-case. */
const looksLikeLoneToken = (value: string): boolean =>
  !isPlaceholderPart(value) && ((/\d/.test(value) && /[A-Za-z]/.test(value)) || (value.length >= 16 && /[a-z]/.test(value) && /[A-Z]/.test(value)));

/** The span of `-u`'s argument to redact, or undefined when it holds no credential. */
function credentialSpan(word: ShellWord): [number, number] | undefined {
  // The `:` of an earlier redaction (`"[REDACTED:password]:"`) is not the pair's.
  const colon = word.chars.indexOf(':', word.chars.startsWith(REDACTED_PREFIX) ? word.chars.indexOf(']') + 1 : 0);
  if (colon === -1) return undefined; // `-u name`: curl asks for the password
  const user = word.chars.slice(0, colon);
  const password = word.chars.slice(colon + 1);
  if (password === '') return looksLikeLoneToken(user) ? [word.at[0] as number, (word.at[colon - 1] as number) + 1] : undefined;
  if (user === '' ? isPlaceholderPart(password) : isPlaceholderPair(user, password)) return undefined;
  return [word.at[colon + 1] as number, (word.at[word.at.length - 1] as number) + 1];
}

/** Where the option at `i` (a `-` after a blank) ends and its value starts, or -1 when it is not a user option. */
function userOptionValue(text: string, i: number): number {
  for (const option of USER_OPTIONS) {
    if (!text.startsWith(option, i)) continue;
    let v = i + option.length;
    if (text[v] === '=') return v + 1;
    if (!isBlank(text[v])) return -1;
    while (isBlank(text[v])) v++;
    return v;
  }
  return -1;
}

export function scanCurlCredentials(text: string, curls: KeywordHits): Replacement[] {
  const out: Replacement[] = [];
  let scannedTo = 0;
  for (const at of curls.starts) {
    if (at < scannedTo || (at > 0 && isTokenChar(text.charCodeAt(at - 1))) || isTokenChar(text.charCodeAt(at + 4))) continue;
    const limit = Math.min(text.length, at + MAX_COMMAND);
    let lines = 0;
    let quote = 0;
    let i = at + 4;
    for (; i < limit; i++) {
      const c = text.charCodeAt(i);
      if (quote !== 0) {
        if (c === quote) quote = 0;
        else if (c === 10) break;
        continue;
      }
      if (c === 34 || c === 39) quote = c; // " '
      else if (c === 10) {
        if (!isContinuation(text, i) || ++lines > MAX_CONTINUED_LINES) break;
      } else if (c === 124 || c === 59 || c === 38) break; // | ; &
      else if (c === 45 && isBlankCode(text.charCodeAt(i - 1))) {
        const valueAt = userOptionValue(text, i);
        if (valueAt === -1) continue;
        const word = shellWord(text, valueAt, limit);
        if (word.unclosed) {
          i = word.end; // what the word read is not read again by the next `curl`
          break;
        }
        const span = credentialSpan(word);
        if (span && !text.startsWith(REDACTED_PREFIX, span[0])) out.push({ start: span[0], end: span[1], text: redacted('password'), kind: 'password' });
        i = word.end - 1;
      }
    }
    scannedTo = i;
  }
  return out;
}

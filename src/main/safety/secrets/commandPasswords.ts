/** Passwords given to well-known commands as plain arguments: sshpass, redis-cli, openssl, mysql (curl's are in curlCredentials.ts). */
import { redacted, type PatternDetector, type Redaction } from './redaction';
import { isPlaceholderValue } from './secretNames';

/** Where `-pass pass:…` (or `-passin`, `-passout`, `-k`) starts, given where its `pass:` is. */
function openSslOptionStart(text: string, at: number): number[] {
  let optionEnd = at;
  while (optionEnd > 0 && (text.charCodeAt(optionEnd - 1) === 32 || text.charCodeAt(optionEnd - 1) === 9)) optionEnd--;
  if (optionEnd === at) return [];
  return ['-pass', '-passin', '-passout', '-k'].filter((option) => text.startsWith(option, optionEnd - option.length)).map((option) => optionEnd - option.length);
}

export const COMMAND_PASSWORD_DETECTORS: readonly PatternDetector[] = [
  { kind: 'password', keywords: ['sshpass'], pattern: /(?<![A-Za-z0-9_-])(sshpass[ \t]+-p[ \t]*)(\S{1,4096})/g },
  { kind: 'password', keywords: ['redis-cli'], pattern: /(?<![A-Za-z0-9_-])(redis-cli\b[^\n|;&]{0,300}?[ \t]-a[ \t]+)([^\s'"]{1,4096})/g },
  // openssl … -pass pass:secret, -passin pass:…, -passout pass:…, -k pass:…
  { kind: 'password', keywords: ['pass:'], startsFrom: openSslOptionStart, pattern: /(?<![A-Za-z0-9_-])(-(?:pass|passin|passout|k)[ \t]+pass:)(\S{1,4096})/g },
  // mysql -u root -psecret (the password is glued to -p)
  { kind: 'password', keywords: ['mysql', 'mariadb'], pattern: /(?<![A-Za-z0-9_-])((?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n|;&]{0,300}?[ \t]-p)([^\s'"-][^\s'"]{0,4095})/g },
].map((detector) => ({
  ...detector,
  redact: (m: RegExpExecArray): Redaction | undefined =>
    isPlaceholderValue(m[2] ?? '') ? undefined : { text: `${m[1] ?? ''}${redacted('password')}`, kind: 'password' },
}));

/** Passwords given to well-known commands as plain arguments: curl -u (also on a continued line), sshpass, redis-cli, openssl, mysql. */
import { redacted, type PatternDetector, type Redaction } from './redaction';
import { isPlaceholderValue } from './secretNames';

export const COMMAND_PASSWORD_DETECTORS: readonly PatternDetector[] = [
  // curl -u user:password, --user, --proxy-user
  { kind: 'password', needle: 'curl', pattern: /(?<![A-Za-z0-9_-])(curl\b(?:[^\n|;&]|(?<=\\\r?)\n){0,300}?[ \t](?:-u|--user|--proxy-user|-U)(?:[ \t]+|=)['"]?[^\s:'"[\]]{1,256}:)([^\s'"]{1,256})/g },
  { kind: 'password', needle: 'sshpass', pattern: /(?<![A-Za-z0-9_-])(sshpass[ \t]+-p[ \t]*)(\S{1,4096})/g },
  { kind: 'password', needle: 'redis-cli', pattern: /(?<![A-Za-z0-9_-])(redis-cli\b[^\n|;&]{0,300}?[ \t]-a[ \t]+)([^\s'"]{1,4096})/g },
  // openssl … -pass pass:secret, -passin pass:…, -passout pass:…, -k pass:…
  { kind: 'password', needle: 'pass:', pattern: /(?<![A-Za-z0-9_-])(-(?:pass|passin|passout|k)[ \t]+pass:)(\S{1,4096})/g },
  // mysql -u root -psecret (the password is glued to -p)
  { kind: 'password', needle: 'my', pattern: /(?<![A-Za-z0-9_-])((?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n|;&]{0,300}?[ \t]-p)([^\s'"-][^\s'"]{0,4095})/g },
].map((detector) => ({
  ...detector,
  redact: (m: RegExpExecArray): Redaction | undefined =>
    isPlaceholderValue(m[2] ?? '') ? undefined : { text: `${m[1] ?? ''}${redacted('password')}`, kind: 'password' },
}));

/**
 * Whether a `user:password` pair (curl's `-u`, a URL's user part) is documentation rather than a
 * credential: `user:pass`, `test:test`, `xxx:yyy`, `<user:password>`, `$USER:$PASS`,
 * `neo4j:[PASSWORD]`. Shared by the rules that find such pairs.
 */
import { isPlaceholderValue } from './secretNames';

/** Passwords that stand for one in examples: the word itself, or what tutorials type. */
const PLACEHOLDER_PASSWORDS = new Set(['pass', 'passwd', 'password', 'pwd', 'pw', 'secret', 'token', 'apikey', 'api_key', 'test', 'changeme', 'changeit', 'example', 'foo', 'bar', 'baz']);

/** Filled in at run time: `$1`, `$PASS`, `${TOKEN}`, `$(cat pw.txt)`, `` `cmd` ``, `{{ .Values.pw }}`, `${{ secrets.PW }}`. */
export const isReference = (value: string): boolean => value.startsWith('$') || value.startsWith('`') || value.startsWith('{{');

/** A hole to fill: `<pass>`, `[PASSWORD]`, `%PASSWORD%`. */
const isHole = (value: string): boolean => /^(?:<[^<>]*>|\[[^[\]]*\]|%[A-Za-z_]+%)$/.test(value);

/** One character repeated: `xxx`, `yyy`, `***`. */
const isOneCharacter = (value: string): boolean => /^(.)\1*$/.test(value);

/** Whether one part (a password, or a token given alone) is a placeholder. Braces around it (`{apikey}`, `{3f1c…}`) are how some docs write a value in: what they hold decides. */
export function isPlaceholderPart(value: string): boolean {
  if (isReference(value) || isHole(value)) return true;
  const inner = /^\{[^{}]+\}$/.test(value) ? value.slice(1, -1) : value;
  return inner === '' || isOneCharacter(inner) || PLACEHOLDER_PASSWORDS.has(inner.toLowerCase()) || isPlaceholderValue(inner);
}

/** Whether `user:password` is a placeholder pair: its password is one, equals the user name, or the pair is wrapped in `<…>`. */
export function isPlaceholderPair(user: string, password: string): boolean {
  if (user.startsWith('<') && password.endsWith('>')) return true;
  return password.toLowerCase() === user.toLowerCase() || isPlaceholderPart(password);
}

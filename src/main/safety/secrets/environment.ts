/**
 * Environment variables reach a model only through an allow-list (`context.include_env`), and
 * never those whose name says they hold a secret, whatever the allow-list says.
 */
import { scrubSecrets } from './scrub';

/** Variables never passed on: names ending in KEY, SECRET, TOKEN, PASSWORD and the like. */
const SECRET_ENV_NAME = /(?:^|_)(?:KEY|KEYS|SECRET|SECRETS|TOKEN|TOKENS|PASSWORD|PASSWD|PASS|PWD|PASSPHRASE|CREDENTIAL|CREDENTIALS|CREDS|AUTH|PRIVATE_KEY|API_KEY|APIKEY|SALT)$|API_?KEY|ACCESS_?KEY|SECRET|PASSWORD|CREDENTIAL/i;

/** Whether an environment variable name is refused even when allow-listed. */
export function isSecretEnvironmentName(name: string): boolean {
  if (name === 'PWD' || name === 'OLDPWD') return false;
  return SECRET_ENV_NAME.test(name);
}

/**
 * The allow-listed variables of `env` that are set, minus any whose name ends in `_KEY`,
 * `_SECRET`, `_TOKEN`, `_PASSWORD` (and similar), with their values scrubbed.
 */
export function scrubEnvironment(env: Readonly<Record<string, string | undefined>>, includeNames: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of includeNames) {
    if (isSecretEnvironmentName(name)) continue;
    if (!Object.prototype.hasOwnProperty.call(env, name)) continue;
    const value = env[name];
    if (typeof value !== 'string') continue;
    out[name] = scrubSecrets(value).text;
  }
  return out;
}

/**
 * The scrubber's formats and placeholders of issue 26: base64-wrapped secrets, vendor prefixes
 * it did not know, values named by their vendor, Slack tokens by kind, and values typed by hand.
 * Every secret is assembled from seeded random pieces, so the source holds none.
 */
import { describe, expect, it } from 'vitest';
import { SECRET_DETECTORS, scrubSecrets } from '../../src/main/safety/secretScrubber';
import { holdsSequence, isMostlyRuns, isRepeatedUnit } from '../../src/main/safety/secrets/fakeValues';
import { ALNUM, pseudo } from '../support/pseudoText';

const HEX = '0123456789abcdef';
const LOWER_ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
const DIGITS = '0123456789';
const b64 = (s: string): string => Buffer.from(s).toString('base64');
const scrubbed = (text: string): string => scrubSecrets(text).text;

describe('base64-wrapped secrets', () => {
  const jwt = `${Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url')}.${Buffer.from('{"sub":"42"}').toString('base64url')}.${pseudo(43, ALNUM, 5)}`;

  it('redacts a JWT encoded once more, a user:password pair and an env file holding a password', () => {
    expect(scrubbed(`value: ${b64(jwt)}`)).toBe('value: [REDACTED:base64-jwt]');
    expect(scrubbed(`echo ${b64(`deploy:${pseudo(14, ALNUM, 9)}7!`)} | base64 -d`)).toBe('echo [REDACTED:base64-credentials] | base64 -d');
    expect(scrubbed(`CONFIG_B64=${b64(`DB_PASSWORD=${pseudo(16, ALNUM, 11)}\nLOG_LEVEL=info`)}`)).toBe('CONFIG_B64=[REDACTED:base64-password]');
  });

  it('redacts base64 credentials under any name ending in auth, also when cut or garbled', () => {
    const pair = b64(`johndoe:${pseudo(30, ALNUM, 15)}`);
    const garbled = `${pair.slice(0, 20)}+${pair.slice(21, 30)}/${pair.slice(31)}`;
    expect(scrubbed(`"user_auth": "${pair}"`)).toBe('"user_auth": "[REDACTED:credential]"');
    expect(scrubbed(`"user_auth": "${garbled}"`)).toBe('"user_auth": "[REDACTED:credential]"');
    expect(scrubbed('"use_auth": true, "oauth": "enabled"')).toBe('"use_auth": true, "oauth": "enabled"');
  });

  it('reports a Basic credential and a Docker auth as what they are, not as base64', () => {
    const pair = b64(`ci:${pseudo(18, ALNUM, 13)}`);
    expect(scrubbed(`Authorization: Basic ${pair}`)).toBe('Authorization: Basic [REDACTED:authorization]');
    expect(scrubbed(`{"auths":{"registry.example.com":{"auth":"${pair}"}}}`)).not.toContain(pair);
  });

  it('finds every wrapped secret among several, and secrets around them, whatever the inner searches reuse', () => {
    // Each decoded text holds base64 runs of its own, which its search places where the outer places lie.
    const nested = (k: number): string => [1, 2, 3].map((j) => b64(`printable note number ${k}.${j} for the test`)).join(' ');
    const wrapped = [1, 2, 3].map((k) => b64(`TOKEN=${pseudo(24, ALNUM, 90 + k)}\nNOTES=${nested(k)}\nMODE=prod`));
    const github = `ghp_${pseudo(36, ALNUM, 95)}`;
    const text = `start ${github}\n${wrapped.join(' and ')}\nDB_PASSWORD=${pseudo(14, ALNUM, 96)}9!`;
    const out = scrubbed(text);
    for (const secret of [github, ...wrapped]) expect(out).not.toContain(secret);
    expect(out).toContain('DB_PASSWORD=[REDACTED:password]');
    expect(out.match(/\[REDACTED:base64-token\]/g)).toHaveLength(3);
  });

  it('is the detector table\'s last row (its search of decoded text reuses the hit lists the rows after it would read)', () => {
    expect(SECRET_DETECTORS[SECRET_DETECTORS.length - 1]?.kind).toBe('base64-secret');
  });

  it('leaves base64 of ordinary text, placeholder pairs, hashes and UUIDs alone', () => {
    for (const text of [
      `data: ${b64('{"theme":"dark","fontSize":14,"panes":[{"cwd":"/home/maria/src"}]}')}`,
      `echo ${b64('user:pass')} ${b64('test:test')} ${b64('admin:admin')}`,
      `sha256 ${pseudo(64, HEX, 17)}`,
      'id 123e4567-e89b-12d3-a456-426614174000',
      `icon: data:image/svg+xml;base64,${b64('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M5 19h3v9z"/></svg>')}`,
    ]) {
      expect(scrubbed(text)).toBe(text);
    }
  });
});

describe('vendor prefixes (issue 26)', () => {
  const cases: [string, string][] = [
    ['adobe-secret', `p8e-${pseudo(32, ALNUM, 21)}`],
    ['alibaba-key', `LTAI${pseudo(20, ALNUM, 22)}`],
    ['cloudflare-origin-ca-key', `v1.0-${pseudo(24, HEX, 23)}-${pseudo(146, HEX, 24)}`],
    ['databricks-token', `dapi${pseudo(32, HEX, 25)}`],
    ['doppler-token', `dp.pt.${pseudo(43, ALNUM, 26)}`],
    ['dynatrace-token', `dt0c01.${pseudo(24, ALNUM, 27)}.${pseudo(64, ALNUM, 28)}`],
    ['easypost-key', `EZAK${pseudo(54, ALNUM, 29)}`],
    ['perplexity-key', `pplx-${pseudo(48, ALNUM, 30)}`],
    ['postman-key', `PMAK-${pseudo(24, HEX, 31)}-${pseudo(34, HEX, 32)}`],
    ['pulumi-token', `pul-${pseudo(40, HEX, 33)}`],
    ['sendgrid-key', `SG.${pseudo(22, ALNUM, 34)}.${pseudo(43, ALNUM, 35)}`],
    ['new-relic-key', `NRAK-${pseudo(27, ALNUM, 36)}`],
    ['intra42-secret', `s-s4t2ud-${pseudo(64, HEX, 37)}`],
    ['twitter-bearer-token', `${'A'.repeat(22)}${pseudo(90, ALNUM, 38)}`],
    ['slack-token', `xoxa-2-${pseudo(9, DIGITS, 39)}-${pseudo(11, DIGITS, 40)}-${pseudo(13, DIGITS, 41)}-${pseudo(20, HEX, 42)}`],
    ['slack-token', `xoxe.xoxp-1-${pseudo(160, ALNUM, 43)}`],
    ['anthropic-api-key', `sk-ant-admin01-${pseudo(93, ALNUM + '_-', 44)}AA`],
  ];
  for (const [kind, token] of cases) {
    it(`redacts ${kind} (${token.slice(0, 12)}…) in prose and in assignments`, () => {
      expect(scrubbed(`the key ${token} was rotated`)).toBe(`the key [REDACTED:${kind}] was rotated`);
      expect(scrubbed(`export VALUE="${token}"`)).toBe(`export VALUE="[REDACTED:${kind}]"`);
    });
  }

  it('leaves documentation fakes of the wrong shape alone', () => {
    for (const text of [
      'xoxb-12345-abcd234',
      'xoxb-xoxb-my-bot-token',
      'xoxp-1234567890',
      `xoxp-${pseudo(12, DIGITS, 45)}-${pseudo(12, DIGITS, 46)}-${pseudo(12, DIGITS, 47)}-${'#'.repeat(20)}`,
      'sk-ant-api03-abc123xyz-456de-klMnopqrstuvwx-3456yza789bcde-1234fghijklmnopAA',
      `AGE-SECRET-KEY-1${'Q'.repeat(58)}`,
      `sgp_5555555dAAAAA7777777CcccCFaaaaaaaaaaaaaa`,
      'GR1348941' + '123'.repeat(7),
      'AIzaSy' + 'abcdefghijklmnopqrstuvwxyz' + '1234567',
      `"token3": "xoxp-1234-1234-1234-${pseudo(32, HEX, 48)}"`,
    ]) {
      expect(scrubbed(text)).toBe(text);
    }
  });

  it('still redacts a well-formed key with a shorter run, and a Slack token whose ids are long enough', () => {
    expect(scrubbed(`AIzaSy${pseudo(10, ALNUM, 49)}abcdefgh${pseudo(15, ALNUM, 50)}`)).toBe('[REDACTED:google-api-key]');
    expect(scrubbed(`"token3": "xoxp-${pseudo(11, DIGITS, 51)}-${pseudo(11, DIGITS, 52)}-${pseudo(12, DIGITS, 53)}-${pseudo(32, HEX, 54)}"`)).toBe('"token3": "[REDACTED:slack-token]"');
  });
});

describe('values named by their vendor', () => {
  it('redacts a value of the vendor format under a name that only names the vendor', () => {
    const cases: [string, string, string][] = [
      ['cloudflare: "', pseudo(37, HEX, 51), '"'],
      ['SONAR_LOGIN = "', pseudo(40, LOWER_ALNUM, 52), '"'],
      ['sumologic.accessId = "su', pseudo(12, ALNUM, 53), '"'],
      ['"artifactory", "', pseudo(64, LOWER_ALNUM, 54), '"'],
      ['sourcegraph: ', pseudo(40, HEX, 55), ''],
      ['const MessageBirdClientID = "', `${pseudo(8, HEX, 56)}-${pseudo(4, HEX, 57)}-${pseudo(4, HEX, 58)}-${pseudo(4, HEX, 59)}-${pseudo(12, HEX, 60)}`, '"'],
      ['export BUNDLE_ENTERPRISE__CONTRIBSYS__COM=', `${pseudo(8, HEX, 61)}:${pseudo(8, HEX, 62)}`, ''],
      ['telegram bot: ', `${pseudo(9, DIGITS, 63)}:AA${pseudo(33, ALNUM, 64)}`, ''],
    ];
    for (const [before, value, after] of cases) {
      const out = scrubbed(`${before}${value}${after}`);
      expect(out, before).not.toContain(value);
      expect(out.startsWith(before.replace(/su$/, '')), before).toBe(true);
    }
  });

  it('needs the vendor word at the start of a name part, written as the vendor writes it', () => {
    const value = pseudo(64, LOWER_ALNUM, 65);
    expect(scrubbed(`consumo = "${value}"`)).toBe(`consumo = "${value}"`);
    expect(scrubbed(`sumOfExposures = ${value};`)).toBe(`sumOfExposures = ${value};`);
    expect(scrubbed(`SUMO_ACCESS_TOKEN = ${value}`)).not.toContain(value);
  });

  it('leaves a vendor-named value of another shape, or one typed by hand, to the other rules', () => {
    expect(scrubbed('meraki: aaaaaaaaaa1111111111bbbbbbbbbb2222222222')).toBe('meraki: aaaaaaaaaa1111111111bbbbbbbbbb2222222222');
    expect(scrubbed(`oktaKey = 00${'0'.repeat(33)}TUVWXYZ`)).toBe(`oktaKey = 00${'0'.repeat(33)}TUVWXYZ`);
    expect(scrubbed('cloudflare_zone: example.com')).toBe('cloudflare_zone: example.com');
  });
});

describe('values typed by hand', () => {
  it('finds keyboard runs, repeated units and runs of one character', () => {
    expect(holdsSequence('sk_abcdefghijklmnop')).toBe(true);
    expect(holdsSequence('dapi1234567890')).toBe(true);
    expect(holdsSequence(pseudo(200, ALNUM, 71))).toBe(false);
    expect(isRepeatedUnit('1234-1234-1234')).toBe(true);
    expect(isRepeatedUnit('123123123123')).toBe(true);
    expect(isRepeatedUnit(pseudo(30, ALNUM, 72))).toBe(false);
    expect(isMostlyRuns('Q'.repeat(58))).toBe(true);
    expect(isMostlyRuns('2511111111311111111113111111111111e039d02840a0b9379c')).toBe(false);
    expect(isMostlyRuns(pseudo(40, ALNUM, 73))).toBe(false);
  });

  it('leaves such values, masks, labels, constants and positional parameters under secret names', () => {
    for (const text of [
      'DATABRICKS_TOKEN=dapi123456789012345678a9bc01234defg5',
      'api_key: "sk_abcdefghijklmnopqrstuvwxyz123"',
      'password: ********',
      'token: "xoxp-572370529330-573807301142-572331691188-####################"',
      'access_token=ACCESS_TOKEN',
      'aws_access_key: AKIAIOSFODNN7EXAMPLE',
      'SUMO_ACCESS_KEY=${SUMO_ACCESS_KEY:=$2}',
      'telegram_api_token = "telegram_api_token = "',
      'telegram_api_token = "token:"',
      'fn::secret: ops_eyJzaWduSW5B..[Redacted]',
      `publicToken = "${pseudo(43, ALNUM, 74)}"`,
      'bucket_key: "SalesResults-1.2"',
      '<entry key="jetbrains.mps.v8_elimination" value="executed" />',
      'spec:\n  data:\n    - secretKey: api-key\n      remoteRef:\n        key: my-secrets-manager-secret\n      secretKey: foo',
      'curl "https://api.example.com/v1?token=ACCESS_TOKEN&page=2"',
      'Pick a strong password combination.\n\nR5: Regulatory--21',
      'password       = "rootpasswd"',
      '<add key="Password" value="CleartextPassword1" />',
      'MYSQL_ROOT_PASSWORD=admin123',
      'telegram_api_token = "token:"clm97053:AgencyIdentificationCodeContentType""',
      '  keyVaultToStoreSecrets: cmp2-qat-1208358310',
      `telegram_api_token = "${pseudo(4, DIGITS, 57)}:A${pseudo(30, LOWER_ALNUM, 58)}"`,
      `telegram_api_token = "${pseudo(8, DIGITS, 59)}:A${pseudo(34, LOWER_ALNUM, 60)}-some-other-thing"`,
      '    Secrets: a value whose id or body has the wrong length is not a bot token, under any name',
      'export const TELEGRAM_BOT_TOKEN: PatternDetector = {',
      'let apiKey: ApiKeyHolder = load();',
    ]) {
      expect(scrubbed(text)).toBe(text);
    }
  });

  it('still redacts a person\'s password that holds a short run', () => {
    expect(scrubbed('DB_PASSWORD=Summer123456!')).toBe('DB_PASSWORD=[REDACTED:password]');
    expect(scrubbed('password: correct-horse-battery')).toBe('password: [REDACTED:password]');
    expect(scrubbed('AZURE_CREDENTIALS=abc')).toBe('AZURE_CREDENTIALS=[REDACTED:credential]');
    expect(scrubbed(`AWS_SECRET_ACCESS_KEY=/${pseudo(39, ALNUM, 80)}`)).toBe('AWS_SECRET_ACCESS_KEY=[REDACTED:aws-secret-access-key]');
    expect(scrubbed('password: /etc/app/password.txt')).toBe('password: /etc/app/password.txt');
    expect(scrubbed('<add key="ClearTextPassword" value="Xk9#pL2!qR" />')).toBe('<add key="ClearTextPassword" value="[REDACTED:password]" />');
    // Stock words with something of the person's own, and capitalized words as a password, are still secrets.
    expect(scrubbed('password = "rootpasswd-Kestrel"')).toBe('password = "[REDACTED:password]"');
    expect(scrubbed('password: CorrectHorseBatteryStaple')).toBe('password: [REDACTED:password]');
    expect(scrubbed(`api_token = "Agency${pseudo(30, ALNUM, 55)}"`)).toBe('api_token = "[REDACTED:token]"');
    expect(scrubbed(`vault_token: hvs.${pseudo(24, ALNUM, 56)}`)).toBe('vault_token: [REDACTED:vault-token]');
    expect(scrubbed(`telegram_api_token = "${pseudo(9, DIGITS, 61)}:A${pseudo(34, LOWER_ALNUM, 62)}"`)).toBe('telegram_api_token = "[REDACTED:telegram-bot-token]"');
    // A passphrase is a sentence; a typed declaration's value is still read after its type.
    expect(scrubbed('password: correct horse battery staple glue ink')).toBe('password: [REDACTED:password]');
    const compared = pseudo(32, ALNUM, 63);
    expect(scrubbed(`check apiKey: ${compared} == other`)).toBe('check apiKey: [REDACTED:api-key] == other');
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALNUM, pseudo } from '../support/pseudoText';
import {
  SECRET_DETECTORS,
  findSecrets,
  isSecretEnvironmentName,
  looksHighEntropy,
  scrubEnvironment,
  scrubSecrets,
  type SecretDetector,
} from '../../src/main/safety/secretScrubber';
import { isPlaceholderValue } from '../../src/main/safety/secrets/secretNames';
import { isPlaceholderToken } from '../../src/main/safety/secrets/vendorTokens';

// Fake secrets are assembled from pieces so the source holds nothing a secret scanner would flag.
const b64url = (value: string): string => Buffer.from(value).toString('base64url');

const GITHUB = 'ghp_' + pseudo(36);
const GITHUB_PAT = 'github_pat_' + pseudo(22) + '_' + pseudo(59, ALNUM, 3);
const GITLAB = 'glpat-' + pseudo(20);
const SLACK = 'xoxb-' + '123456789012-' + pseudo(24);
const SLACK_HOOK = 'https://hooks.slack.com/services/' + 'T0' + pseudo(8, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789') + '/B0' + pseudo(8) + '/' + pseudo(24);
const STRIPE = 'sk_' + 'live_' + pseudo(24);
const STRIPE_TEST = 'sk_' + 'test_' + pseudo(24, ALNUM, 5);
const STRIPE_RESTRICTED = 'rk_' + 'live_' + pseudo(24, ALNUM, 9);
const GOOGLE = 'AIza' + pseudo(35, ALNUM + '_-');
const ANTHROPIC = 'sk-' + 'ant-api03-' + pseudo(93, ALNUM + '_-') + 'AA';
const OPENAI = 'sk-' + 'proj-' + pseudo(60, ALNUM + '_-', 11);
const OPENAI_LEGACY = 'sk-' + pseudo(48, ALNUM, 13);
const NPM = 'npm_' + pseudo(36, ALNUM, 17);
const AWS_ID = 'AKIA' + pseudo(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567');
const AWS_SESSION_ID = 'ASIA' + pseudo(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 19);
const AWS_SECRET = pseudo(40, ALNUM + '/+', 23);
const JWT = [b64url('{"alg":"HS256","typ":"JWT"}'), b64url('{"sub":"1234567890","name":"A"}'), pseudo(43, ALNUM + '_-', 29)].join('.');
const PEM_BODY = Array.from({ length: 6 }, (_, i) => pseudo(64, ALNUM + '+/', 31 + i)).join('\n');
const PEM = `-----BEGIN RSA PRIVATE KEY-----\n${PEM_BODY}\n-----END RSA PRIVATE KEY-----`;
const OPENSSH = `-----BEGIN OPENSSH PRIVATE KEY-----\n${PEM_BODY}\n-----END OPENSSH PRIVATE KEY-----`;

describe('scrubSecrets: token formats', () => {
  const cases: [string, string, string][] = [
    ['github-token', `token is ${GITHUB} ok`, 'token is [REDACTED:github-token] ok'],
    ['github-token (fine-grained)', `GH=${GITHUB_PAT}`, 'GH=[REDACTED:github-token]'],
    ['github-token (oauth)', `${'gho_' + pseudo(36, ALNUM, 41)}`, '[REDACTED:github-token]'],
    ['gitlab-token', `git clone https://oauth2:${GITLAB}@gitlab.com/x/y`, 'git clone https://oauth2:[REDACTED:gitlab-token]@gitlab.com/x/y'],
    ['slack-token', `SLACK ${SLACK}`, 'SLACK [REDACTED:slack-token]'],
    ['slack-webhook', `curl -X POST ${SLACK_HOOK} -d x`, 'curl -X POST [REDACTED:slack-webhook] -d x'],
    ['stripe-key', `${STRIPE} ${STRIPE_TEST} ${STRIPE_RESTRICTED}`, '[REDACTED:stripe-key] [REDACTED:stripe-key] [REDACTED:stripe-key]'],
    ['google-api-key', `key=${GOOGLE}&q=1`, 'key=[REDACTED:google-api-key]&q=1'],
    ['anthropic-api-key', `export KEY_A=${ANTHROPIC}`, 'export KEY_A=[REDACTED:anthropic-api-key]'],
    ['openai-api-key', `${OPENAI}\n${OPENAI_LEGACY}`, '[REDACTED:openai-api-key]\n[REDACTED:openai-api-key]'],
    ['npm-token', `//registry.npmjs.org/:_authToken=${NPM}`, '//registry.npmjs.org/:_authToken=[REDACTED:npm-token]'],
    ['aws-access-key', `id ${AWS_ID} and ${AWS_SESSION_ID}`, 'id [REDACTED:aws-access-key] and [REDACTED:aws-access-key]'],
    ['aws-secret-access-key', `aws_secret_access_key = ${AWS_SECRET}`, 'aws_secret_access_key = [REDACTED:aws-secret-access-key]'],
    ['jwt', `cookie: session ${JWT}; path=/`, 'cookie: session [REDACTED:jwt]; path=/'],
    ['private-key', `before\n${PEM}\nafter`, 'before\n[REDACTED:private-key]\nafter'],
    ['private-key (openssh)', OPENSSH, '[REDACTED:private-key]'],
    ['url-password', 'postgres://admin:hunter2@db.internal:5432/app', 'postgres://admin:[REDACTED:url-password]@db.internal:5432/app'],
    ['authorization', `curl -H "Authorization: Bearer ${pseudo(32, ALNUM, 43)}" https://api`, 'curl -H "Authorization: Bearer [REDACTED:authorization]" https://api'],
  ];
  for (const [name, input, expected] of cases) {
    it(`redacts ${name}`, () => {
      const result = scrubSecrets(input);
      expect(result.text).toBe(expected);
      expect(result.redactions.length).toBeGreaterThan(0);
    });
  }

  it('counts redactions per kind, sorted by kind', () => {
    const result = scrubSecrets(`${GITHUB}\n${AWS_ID}\n${GITHUB}\nDB_PASSWORD=hunter2`);
    expect(result.redactions).toEqual([
      { kind: 'aws-access-key', count: 1 },
      { kind: 'github-token', count: 2 },
      { kind: 'password', count: 1 },
    ]);
  });

  it('redacts key blocks whose end or start is missing (output cut off or scrolled away)', () => {
    const noEnd = scrubSecrets(`-----BEGIN PRIVATE KEY-----\n${PEM_BODY}`);
    expect(noEnd.text).toBe('[REDACTED:private-key]');
    const noStart = scrubSecrets(`$ cat key\n${PEM_BODY}\n-----END PRIVATE KEY-----\n$ ls`);
    expect(noStart.text).toBe('$ cat key\n[REDACTED:private-key]\n$ ls');
  });

  it('only calls a dotted base64 string a JWT when its first part decodes to a JSON header', () => {
    const fake = `${b64url('not json at all!')}.${b64url('{"a":1}')}.${pseudo(20)}`;
    expect(scrubSecrets(`x ${fake} y`).text).toBe(`x ${fake} y`);
  });
});

describe('scrubSecrets: names that say secret', () => {
  const cases: [string, string][] = [
    ['DB_PASSWORD=hunter2', 'DB_PASSWORD=[REDACTED:password]'],
    ['export API_TOKEN="abc def"', 'export API_TOKEN="[REDACTED:token]"'],
    ["client_secret: 'xyz123'", "client_secret: '[REDACTED:secret]'"],
    ['{"apiKey": "k-123", "user": "bob"}', '{"apiKey": "[REDACTED:api-key]", "user": "bob"}'],
    ['{"api_key":"k-123"}', '{"api_key":"[REDACTED:api-key]"}'],
    ['password: s3cr3t!', 'password: [REDACTED:password]'],
    ['mysql -u root --password=s3cr3t db', 'mysql -u root --password=[REDACTED:password] db'],
    ['tool --api-key abc123 --verbose', 'tool --api-key [REDACTED:api-key] --verbose'],
    ['PRIVATE_KEY=abcdef', 'PRIVATE_KEY=[REDACTED:private-key]'],
    ['AZURE_CREDENTIALS=abc', 'AZURE_CREDENTIALS=[REDACTED:credential]'],
    ['db_pwd=abc', 'db_pwd=[REDACTED:password]'],
    ['https://x.test/cb?token=abc123&next=/home', 'https://x.test/cb?token=[REDACTED:token]&next=/home'],
    ['token = "abc123secret"', 'token = "[REDACTED:token]"'],
  ];
  for (const [input, expected] of cases) {
    it(`redacts the value in ${JSON.stringify(input)}`, () => {
      expect(scrubSecrets(input).text).toBe(expected);
    });
  }

  it('redacts long high-entropy values assigned to ordinary names', () => {
    const value = pseudo(32, ALNUM, 47);
    expect(looksHighEntropy(value)).toBe(true);
    expect(scrubSecrets(`SOME_SETTING=${value}`).text).toBe('SOME_SETTING=[REDACTED:high-entropy]');
    expect(scrubSecrets(`session: "${value}"`).text).toBe('session: "[REDACTED:high-entropy]"');
  });

  it("leaves a random value under a program's own identifier: test data or an id, not a key (issue 26)", () => {
    const value = pseudo(40, ALNUM, 48);
    expect(looksHighEntropy(value)).toBe(true);
    for (const line of [`sumOfExposures = ${value};`, `rookTable = ${value}`, `setting: "${value}"`]) expect(scrubSecrets(line).text).toBe(line);
  });
});

describe('scrubSecrets: more shapes of secrets', () => {
  const KEY_BODY = PEM_BODY.replace(/\n/g, '\\n');
  const cases: [string, string, string][] = [
    ['.netrc on one line', `machine github.com login me password ${pseudo(20, ALNUM, 71)}`, 'machine github.com login me password [REDACTED:password]'],
    ['.netrc, password on its own line', `machine host\n  login deploy\n  password ${pseudo(16, ALNUM, 73)}`, 'machine host\n  login deploy\n  password [REDACTED:password]'],
    ['XML element', `<password>${pseudo(14, ALNUM, 75)}</password>`, '<password>[REDACTED:password]</password>'],
    ['PHP define', `define( 'DB_PASSWORD', '${pseudo(14, ALNUM, 77)}' );`, "define( 'DB_PASSWORD', '[REDACTED:password]' );"],
    ['PHP array', `'password' => '${pseudo(14, ALNUM, 79)}',`, "'password' => '[REDACTED:password]',"],
    ['curl -u user:password', `curl -u admin:${pseudo(14, ALNUM, 81)} https://x.test/api`, 'curl -u admin:[REDACTED:password] https://x.test/api'],
    ['URL with an empty user', `redis://:${pseudo(16, ALNUM, 83)}@cache:6379/0`, 'redis://:[REDACTED:url-password]@cache:6379/0'],
    ['sshpass', `sshpass -p ${pseudo(12, ALNUM, 85)} ssh deploy@host`, 'sshpass -p [REDACTED:password] ssh deploy@host'],
    ['aws configure set', `aws configure set aws_secret_access_key ${AWS_SECRET}`, 'aws configure set aws_secret_access_key [REDACTED:aws-secret-access-key]'],
    ['Kubernetes env name/value pair', `- name: DB_PASSWORD\n  value: ${pseudo(14, ALNUM, 87)}`, '- name: DB_PASSWORD\n  value: [REDACTED:password]'],
    ['JSON name/value pair', `{"name": "API_TOKEN", "value": "${pseudo(30, ALNUM, 89)}"}`, '{"name": "API_TOKEN", "value": "[REDACTED:token]"}'],
    ['terraform output', `"db_password": {\n  "sensitive": true,\n  "value": "${pseudo(14, ALNUM, 91)}"\n}`, '"db_password": {\n  "sensitive": true,\n  "value": "[REDACTED:password]"\n}'],
    ['Docker auth (base64 user:password)', `"auth": "${Buffer.from('ci:' + pseudo(14, ALNUM, 93)).toString('base64')}"`, '"auth": "[REDACTED:credential]"'],
    ['PEM key in a JSON string', `"private_key": "-----BEGIN RSA PRIVATE KEY-----\\n${KEY_BODY}\\n-----END RSA PRIVATE KEY-----\\n"`, '"private_key": "[REDACTED:private-key]\\n"'],
    ['base64-encoded PEM key', `tls.key: ${Buffer.from(PEM).toString('base64')}`, 'tls.key: [REDACTED:private-key]'],
    ['Slack webhook path in curl -v', `> POST /services/T0${pseudo(8, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}/B0${pseudo(8, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 3)}/${pseudo(24, ALNUM, 95)} HTTP/2`, '> POST [REDACTED:slack-webhook] HTTP/2'],
    ['Vault token', `token  hvs.${pseudo(24, ALNUM, 97)}`, 'token  [REDACTED:vault-token]'],
    ['Google OAuth access token', `ya29.${pseudo(120, ALNUM + '_-', 99)}`, '[REDACTED:google-oauth-token]'],
    ['AWS session token', `'X-Amz-Security-Token': b'IQoJb3JpZ2luX2Vj${pseudo(300, ALNUM + '+/', 101)}'`, "'X-Amz-Security-Token': b'[REDACTED:aws-session-token]'"],
    ['a value with shell separators in an env dump', `DB_PASSWORD=${pseudo(10, ALNUM, 103)}&${pseudo(6, ALNUM, 105)};x`, 'DB_PASSWORD=[REDACTED:password]'],
    ['a YAML value with blanks', 'password: correct horse battery staple', 'password: [REDACTED:password]'],
    ['an INI value with blanks around =', `passwd = ${pseudo(12, ALNUM, 107)}`, 'passwd = [REDACTED:password]'],
    ['SMTP_PASS', `SMTP_PASS=${pseudo(12, ALNUM, 109)}`, 'SMTP_PASS=[REDACTED:password]'],
    ['a key-named value that is key material', `APP_KEY=base64:${Buffer.from(pseudo(32, ALNUM, 111)).toString('base64')}`, 'APP_KEY=[REDACTED:secret]'],
  ];
  for (const [name, input, expected] of cases) {
    it(`redacts ${name}`, () => {
      expect(scrubSecrets(input).text).toBe(expected);
    });
  }

  it('reports where each secret was, in the original text', () => {
    const text = `GITHUB_TOKEN=${GITHUB}\ncurl -H "Authorization: Bearer ${JWT}" https://x.test`;
    const spans = findSecrets(text);
    expect(spans.map((s) => [text.slice(s.start, s.end), s.kind])).toEqual([
      [GITHUB, 'github-token'],
      [JWT, 'jwt'],
    ]);
  });

  it('lets the row nearer the top of the table win where matches overlap', () => {
    expect(scrubSecrets(`password: ${GITHUB}`).text).toBe('password: [REDACTED:github-token]');
    expect(scrubSecrets(`https://me:${GITLAB}@gitlab.com/x`).text).toBe('https://me:[REDACTED:gitlab-token]@gitlab.com/x');
  });

  it('takes a placeholder word for a placeholder only where it starts a part of the token, not by chance inside a random one', () => {
    // Found by the property below: a random body holding "fakE" was left alone.
    expect(scrubSecrets('ghp_ijqJ1Ec5yfakEjX434ou4IfpXOiUoeIx7NNNa5B: ok').text).toBe('[REDACTED:github-token]: ok');
    expect(scrubSecrets('token ghp_Q8rYouRk2LmPz7Wd3XexAmPlE9tNb4Vc6Hj1 ok').text).toBe('token [REDACTED:github-token] ok');
    for (const placeholder of ['ghp_your_token_here_0000000000000000000', 'ghp_FAKE0a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6', 'ghp_example_ABCDEFGHIJKLMNOPQRSTUVWXYZab']) {
      expect(scrubSecrets(`replace ${placeholder} with yours`).text).toBe(`replace ${placeholder} with yours`);
    }
  });
});

describe('scrubSecrets: leaves ordinary text alone', () => {
  const untouched = [
    'commit 3f2a9c1b7e5d4a6f8b0c2e4d6f8a0b2c4d6e8f0a',
    'sha256: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    'id: 123e4567-e89b-12d3-a456-426614174000',
    'REQUEST_ID=123e4567-e89b-12d3-a456-426614174000',
    'GIT_COMMIT=3f2a9c1b7e5d4a6f8b0c2e4d6f8a0b2c4d6e8f0a',
    'PWD=/home/me/project OLDPWD=/home/me',
    'PASSWORD_FILE=/run/secrets/db_password',
    '/usr/local/lib/node_modules/npm/bin/npm-cli.js',
    'C:\\Users\\me\\AppData\\Local\\token-cache',
    'added 123 packages, and audited 124 packages in 3s\n\n12 packages are looking for funding\n  run `npm fund` for details\nfound 0 vulnerabilities',
    'npm notice New minor version of npm available! 10.2.4 -> 10.8.1',
    '+ lodash@4.17.21\n+ react@18.2.0\nTypeScript 5.9.2',
    '"integrity": "sha512-' + pseudo(86, ALNUM + '+/', 53) + '=="',
    'data:image/png;base64,' + Buffer.from(pseudo(120, ALNUM, 59)).toString('base64'),
    Buffer.from(pseudo(300, ALNUM, 61)).toString('base64'),
    'max_tokens: 1024\ninput_tokens=532\ntokenizer: cl100k_base',
    'password: string;\ntoken?: string | undefined',
    'const password = readPassword();',
    'TOKEN=$GITHUB_TOKEN make release',
    'password: ${DB_PASSWORD}',
    'git@github.com:org/repo.git\nssh://git@host:22/repo',
    'https://example.com:8443/path?q=1#frag',
    'Password for \'https://me@github.com\':',
    'export PATH=/usr/bin:/bin\nexport HOME=/home/me',
    'ETag: W/"5e15153d-120f"',
    'Note: the secret sauce is in main.rs',
    // Values that are not secrets under secret names
    "      DB_PASSWORD:        <set to the key 'password' in secret 'db-password'>  Optional: false",
    '      + password                 = (sensitive value)',
    '\tssl.truststore.password = [hidden]',
    'GITHUB_TOKEN=<your token>',
    '  "jsonwebtoken": "^9.0.2",',
    'tls.key: |',
    'TOKEN_TTL_SECONDS=3600\nPASSWORD_MIN_LENGTH=12\nSECRET_NAME=api-credentials',
    '--- PASS: TestParseConfig (0.11s)',
    'password: ${{ secrets.DB_PASSWORD }}',
    // Code
    'password = input("Password: ")',
    '    password = request.POST.get("password", "")',
    'SECRET_KEY = os.environ["DJANGO_SECRET_KEY"]',
    '    token = jwt.encode({"sub": user.id}, settings.SECRET_KEY, algorithm="HS256")',
    '\tsecret := []byte(cfg.WebhookSecret)',
    'body:JSON.stringify({email:Z,password:Hp})',
    'const{token:s,user:Nn}=await m.json();case"TOKEN_EXPIRED":return{...T,token:null}',
    'this.token = options.token ?? randomBytes(24).toString("base64url");',
    'lastSignificantToken = nextLastSignificantToken;',
    'connect(host=HOST, user=USER, password=get_password())',
    // Random-looking values that are not secrets
    '        Signature Algorithm: sha256WithRSAEncryption',
    'decodeBase64 = decodeBase64WithBufferFrom',
    '  "nextPageToken": "CiAKGjBpNDd2Nmp2Zml2cXRwYjBpOXA3",',
    '  "continue": "' + Buffer.from('{"v":"meta.k8s.io/v1","rv":45751782,"start":"api-7d9c8b6f5d-x2k9p"}').toString('base64url') + '",',
    'github.com/davecgh/go-spew v1.1.1 h1:vj9j/u1bqnvCEfJOwUhtlOARqs3+rkHYY13jYWTU97c=',
    'x-amz-id-2: ' + Buffer.from(pseudo(56, ALNUM, 113)).toString('base64'),
    `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${pseudo(43, ALNUM + '+/', 115)} maria@thinkpad`,
    `-----BEGIN CERTIFICATE-----\n${PEM_BODY}\n-----END CERTIFICATE-----`,
    'docker run -u 1000:1000 -v "$PWD":/src node:20 npm test',
  ];
  for (const text of untouched) {
    it(`keeps ${JSON.stringify(text.slice(0, 50))}`, () => {
      const result = scrubSecrets(text);
      expect(result.text).toBe(text);
      expect(result.redactions).toEqual([]);
    });
  }
});

describe('scrubSecrets: extension', () => {
  it('accepts a detector table with new rows', () => {
    const detectors: SecretDetector[] = [...SECRET_DETECTORS, { kind: 'acme-key', pattern: /\bacme_[0-9]{8}\b/g }];
    const result = scrubSecrets('use acme_12345678 now', detectors);
    expect(result.text).toBe('use [REDACTED:acme-key] now');
    expect(result.redactions).toEqual([{ kind: 'acme-key', count: 1 }]);
    expect(scrubSecrets('use acme_12345678 now').text).toBe('use acme_12345678 now');
  });
});

// ---------------------------------------------------------------------------------------------
// Properties

/** Random bodies, minus the placeholders the scrubber leaves alone on purpose (`ghp_AAAA…`, `xoxp-xxxxxx…`, a keyboard run, a repeated unit: see fakeValues.ts). */
const alnum = (min: number, max: number, alphabet = ALNUM) =>
  fc
    .array(fc.constantFrom(...alphabet.split('')), { minLength: min, maxLength: max })
    .map((cs) => cs.join(''))
    .filter((s) => !/([A-Za-z0-9])\1{9,}|x{6,}|X{6,}|EXAMPLE$/.test(s) && !isPlaceholderToken(s, 0) && !isPlaceholderValue(s));
const digits = (min: number, max: number) => fc.array(fc.constantFrom(...'0123456789'.split('')), { minLength: min, maxLength: max }).map((cs) => cs.join(''));
const upperDigits = fc
  .array(fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'.split('')), { minLength: 16, maxLength: 16 })
  .map((cs) => cs.join(''))
  .filter((s) => !/([A-Z0-9])\1{9,}|X{6,}|EXAMPLE$/.test(s));
/** Random values of each known format, with the regex the test uses to find one left behind. */
const secretArbs: { kind: string; arb: fc.Arbitrary<string>; find: RegExp }[] = [
  { kind: 'github', arb: alnum(36, 40).map((s) => 'ghp_' + s), find: /ghp_[A-Za-z0-9]{36}/ },
  { kind: 'gitlab', arb: alnum(20, 26).map((s) => 'glpat-' + s), find: /glpat-[A-Za-z0-9]{20}/ },
  { kind: 'slack', arb: fc.tuple(digits(10, 13), digits(10, 13), digits(10, 13), alnum(32, 32)).map((parts) => `xoxp-${parts.join('-')}`).filter((t) => !isPlaceholderToken(t, 5)), find: /xoxp-[0-9-]{30,}[A-Za-z0-9]{12}/ },
  { kind: 'stripe', arb: alnum(16, 30).map((s) => 'sk_' + 'live_' + s), find: /sk_live_[A-Za-z0-9]{16}/ },
  { kind: 'google', arb: alnum(35, 35, ALNUM + '_-').map((s) => 'AIza' + s), find: /AIza[A-Za-z0-9_-]{35}/ },
  { kind: 'anthropic', arb: alnum(93, 93, ALNUM + '_-').map((s) => 'sk-ant-api03-' + s + 'AA'), find: /sk-ant-api03-[A-Za-z0-9_-]{20}/ },
  { kind: 'openai', arb: alnum(30, 60).map((s) => 'sk-proj-a1' + s), find: /sk-proj-[A-Za-z0-9_-]{20}/ },
  { kind: 'npm', arb: alnum(36, 36).map((s) => 'npm_' + s), find: /npm_[A-Za-z0-9]{36}/ },
  { kind: 'aws', arb: upperDigits.map((s) => 'AKIA' + s), find: /AKIA[A-Z0-9]{16}/ },
  {
    kind: 'jwt',
    arb: fc.tuple(fc.constantFrom('HS256', 'RS256', 'none'), alnum(1, 20), alnum(10, 40, ALNUM + '_-')).map(
      ([alg, sub, sig]) => `${b64url(JSON.stringify({ alg, typ: 'JWT' }))}.${b64url(JSON.stringify({ sub }))}.${sig}`,
    ),
    find: /eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]{10,}/,
  },
  { kind: 'password-assignment', arb: alnum(6, 20).map((s) => `DB_PASSWORD=${s}`), find: /DB_PASSWORD=(?!\[REDACTED)/ },
  { kind: 'url-password', arb: alnum(4, 20).map((s) => `https://bob:${s}@example.com/`), find: /bob:(?!\[REDACTED)[^@]+@/ },
  // Issue 26: base64-wrapped credentials, a value named by its vendor, Telegram bot tokens, Discord webhooks.
  { kind: 'base64-credentials', arb: alnum(12, 24).map((s) => Buffer.from(`deploy:${s}7!`).toString('base64')), find: /ZGVwbG95O[A-Za-z0-9+/]{16,}/ },
  { kind: 'cloudflare', arb: fc.array(fc.constantFrom(...'0123456789abcdef'.split('')), { minLength: 37, maxLength: 37 }).map((cs) => `cloudflare: "${cs.join('')}"`).filter((t) => !/([0-9a-f])\1{3}/.test(t)), find: /cloudflare: "[0-9a-f]{37}"/ },
  { kind: 'telegram', arb: fc.tuple(digits(8, 10), alnum(33, 33)).map(([id, body]) => `bot${id}:A${body.slice(0, 32)}7x`), find: /[0-9]{8}:A[A-Za-z0-9]{20}/ },
  { kind: 'discord-webhook', arb: fc.tuple(digits(18, 19), alnum(68, 68, ALNUM + '_-')).map(([id, t]) => `https://discord.com/api/webhooks/${id}/${t}`), find: /webhooks\/[0-9]{18}\/[A-Za-z0-9_-]{20}/ },
];

const filler = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom('npm ERR! code 1', 'commit 3f2a9c1b7e5d4a6f8b0c2e4d6f8a0b2c4d6e8f0a', '+ lodash@4.17.21', 'key: value', 'a=b', '"x": "y"', '--flag'),
);
const separator = fc.constantFrom(' ', '\n', '\t', ', ', ' = ', ': ', '\r\n', ' "', '" ');

const mixedText = fc
  .array(fc.tuple(fc.oneof(filler, ...secretArbs.map((s) => s.arb)), separator), { maxLength: 20 })
  .map((parts) => parts.map(([text, sep]) => text + sep).join(''));

describe('scrubSecrets properties', () => {
  it('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), fc.string({ unit: 'grapheme-ascii', maxLength: 300 }), mixedText), (text) => {
        const result = scrubSecrets(text);
        expect(typeof result.text).toBe('string');
      }),
      { numRuns: 300 },
    );
  });

  it('is idempotent: a second pass changes nothing and finds nothing', () => {
    fc.assert(
      fc.property(fc.oneof(mixedText, fc.string({ unit: 'grapheme-ascii', maxLength: 300 })), (text) => {
        const once = scrubSecrets(text);
        const twice = scrubSecrets(once.text);
        expect(twice.text).toBe(once.text);
        expect(twice.redactions).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('leaves no known secret behind, wherever it sits among other text', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(filler, separator), { maxLength: 4 }),
        fc.constantFrom(...secretArbs).chain((kind) => kind.arb.map((secret) => ({ kind, secret }))),
        fc.array(fc.tuple(separator, filler), { maxLength: 4 }),
        fc.context(),
        (before, { kind: secretKind, secret }, after, ctx) => {
          const text = before.map(([t, s]) => t + s).join('') + secret + after.map(([s, t]) => s + t).join('');
          ctx.log(text);
          const out = scrubSecrets(text).text;
          expect(out).not.toMatch(secretKind.find);
          expect(out).toContain('[REDACTED:');
        },
      ),
      { numRuns: 400 },
    );
  });

  it('leaves hex SHAs, UUIDs and paths unchanged, alone or assigned to ordinary names', () => {
    const hex = (n: number) => fc.array(fc.constantFrom(...'0123456789abcdef'.split('')), { minLength: n, maxLength: n }).map((cs) => cs.join(''));
    const uuid = fc.uuid();
    const path = fc.array(fc.stringMatching(/^[a-z0-9_.-]{1,12}$/), { minLength: 1, maxLength: 6 }).map((parts) => '/' + parts.join('/'));
    const value = fc.oneof(hex(40), hex(64), hex(7), uuid, path);
    const line = fc.tuple(fc.constantFrom('', 'commit ', 'COMMIT_SHA=', 'id: ', 'path=', '"ref": "', 'object '), value).map(([prefix, v]) => prefix + v);
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 10 }), (lines) => {
        const text = lines.join('\n');
        expect(scrubSecrets(text).text).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});

describe('scrubEnvironment', () => {
  const env = {
    HOME: '/home/me',
    LANG: 'en_US.UTF-8',
    DATABASE_URL: 'postgres://app:hunter2@db/app',
    AWS_SECRET_ACCESS_KEY: 'x',
    GITHUB_TOKEN: GITHUB,
    OPENAI_API_KEY: 'y',
    DB_PASSWORD: 'z',
    MY_SECRET: 'w',
    EDITOR: undefined,
    SHELL: '/bin/bash',
  };

  it('passes only allow-listed, set variables, and never secret-named ones', () => {
    const out = scrubEnvironment(env, ['HOME', 'LANG', 'EDITOR', 'NOT_SET', 'GITHUB_TOKEN', 'OPENAI_API_KEY', 'DB_PASSWORD', 'MY_SECRET', 'AWS_SECRET_ACCESS_KEY', 'DATABASE_URL']);
    expect(Object.keys(out).sort()).toEqual(['DATABASE_URL', 'HOME', 'LANG']);
    expect(out.HOME).toBe('/home/me');
    expect(out.DATABASE_URL).toBe('postgres://app:[REDACTED:url-password]@db/app');
    expect(out).not.toHaveProperty('SHELL');
  });

  it('names ending in _KEY, _SECRET, _TOKEN or _PASSWORD are secret whatever their case', () => {
    for (const name of ['X_KEY', 'X_SECRET', 'x_token', 'X_PASSWORD', 'TOKEN', 'X_API_KEY', 'X_CREDENTIALS']) expect(isSecretEnvironmentName(name)).toBe(true);
    for (const name of ['HOME', 'PWD', 'KEYBOARD', 'TOKENIZERS_PARALLELISM', 'SSH_AUTH_SOCK']) expect(isSecretEnvironmentName(name)).toBe(false);
  });

  it('refuses the other spellings of a secret name too: _PASS, _PWD, _PASSWD, _CREDENTIAL, API keys inside a name', () => {
    for (const name of ['SMTP_PASS', 'DB_PWD', 'DB_PASSWD', 'GCP_CREDENTIAL', 'GOOGLE_APPLICATION_CREDENTIALS', 'OPENAI_APIKEY', 'STRIPE_API_KEY_LIVE', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'CLIENT_SECRET_V2', 'NPM_TOKENS', 'GPG_PASSPHRASE', 'SESSION_SALT'])
      expect(isSecretEnvironmentName(name), name).toBe(true);
    for (const name of ['OLDPWD', 'LANG', 'EDITOR', 'KUBECONFIG', 'GIT_ASKPASS', 'PASSENGER_ENV', 'MONKEY_PATCH', 'PATH']) expect(isSecretEnvironmentName(name), name).toBe(false);
  });

  it('never passes a secret-named variable, even when allow-listed, and scrubs the values it passes', () => {
    const secretNamed = ['SMTP_PASS', 'DB_PWD', 'GOOGLE_APPLICATION_CREDENTIALS', 'X_API_KEY', 'MY_SECRET', 'GITHUB_TOKEN', 'DB_PASSWORD', 'OPENAI_API_KEY'];
    const environment: Record<string, string> = Object.fromEntries(secretNamed.map((name) => [name, pseudo(24, ALNUM, 117)]));
    environment.NOTES = `ci token ${GITHUB} and key ${AWS_ID}`;
    environment.PROXY = 'http://me:hunter22@proxy.corp:3128';
    environment.EDITOR = 'vim';
    const out = scrubEnvironment(environment, [...secretNamed, 'NOTES', 'PROXY', 'EDITOR']);
    expect(Object.keys(out).sort()).toEqual(['EDITOR', 'NOTES', 'PROXY']);
    expect(out.NOTES).toBe('ci token [REDACTED:github-token] and key [REDACTED:aws-access-key]');
    expect(out.PROXY).toBe('http://me:[REDACTED:url-password]@proxy.corp:3128');
    expect(out.EDITOR).toBe('vim');
  });

  it('passes nothing that is not allow-listed, and nothing inherited', () => {
    expect(scrubEnvironment({ HOME: '/home/me', SHELL: '/bin/bash' }, [])).toEqual({});
    expect(scrubEnvironment({ HOME: '/home/me' }, ['toString', 'constructor', '__proto__'])).toEqual({});
  });
});

/**
 * The secret scrubber on the shapes secrets have in real code and config (issue 14): each case is
 * built from one shape, with a generated value (never a real secret; assembled from pieces so the
 * source holds nothing a scanner would flag).
 */
import { describe, expect, it } from 'vitest';
import { ALNUM, pseudo } from '../support/pseudoText';
import { scrubSecrets } from '../../src/main/safety/secretScrubber';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const HEX = '0123456789abcdef';
const UPPER_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const BASE64 = ALNUM + '+/';
const uuid = (seed: number): string => `${pseudo(8, HEX, seed)}-${pseudo(4, HEX, seed + 1)}-4${pseudo(3, HEX, seed + 2)}-a${pseudo(3, HEX, seed + 3)}-${pseudo(12, HEX, seed + 4)}`;

const V = pseudo(24, ALNUM, 201);
const PW = `${pseudo(10, ALNUM, 203)}!${pseudo(4, ALNUM, 205)}`;

describe('scrubSecrets: assignment shapes of code and config', () => {
  const cases: [string, string, string][] = [
    ['Java setProperty', `System.setProperty("X_TOKEN", "${V}");`, 'System.setProperty("X_TOKEN", "[REDACTED:token]");'],
    ['a map put', `props.put("apiKey", "${V}");`, 'props.put("apiKey", "[REDACTED:api-key]");'],
    ['os.environ[…] =', `os.environ["X_TOKEN"] = "${V}"`, 'os.environ["X_TOKEN"] = "[REDACTED:token]"'],
    ['Ruby ENV[…] ||=', `ENV['DB_PASSWORD'] ||= '${PW}'`, "ENV['DB_PASSWORD'] ||= '[REDACTED:password]'"],
    ['headers["Authorization"] =', `headers["Authorization"] = "Token ${V}"`, 'headers["Authorization"] = "Token [REDACTED:authorization]"'],
    ['Go var with a type', `var xToken string = "${V}"`, 'var xToken string = "[REDACTED:token]"'],
    ['Go :=', `\txToken := "${V}"`, '\txToken := "[REDACTED:token]"'],
    ['Kotlin val with a type', `val apiKey: String = "${V}"`, 'val apiKey: String = "[REDACTED:api-key]"'],
    ['Python annotated', `password: str = "${PW}"`, 'password: str = "[REDACTED:password]"'],
    ['PHP .=', `$xToken .= "${V}";`, '$xToken .= "[REDACTED:token]";'],
    ['PHP =', `$dbPassword = '${PW}';`, "$dbPassword = '[REDACTED:password]';"],
    ['XML element over lines', `<apiToken>\n  ${V}\n</apiToken>`, '<apiToken>\n  [REDACTED:token]\n</apiToken>'],
    ['NuGet config', `<add key="ClearTextPassword" value="${PW}" />`, '<add key="ClearTextPassword" value="[REDACTED:password]" />'],
    ['Makefile ?=', `X_TOKEN ?= ${V}`, 'X_TOKEN ?= [REDACTED:token]'],
    ['Makefile :=', `X_TOKEN := ${V}`, 'X_TOKEN := [REDACTED:token]'],
    ['Makefile +=', `DB_PASSWORD += ${PW}`, 'DB_PASSWORD += [REDACTED:password]'],
    ['YAML block scalar', `auth:\n  token: |\n    ${V}\n  user: bob`, 'auth:\n  token: |\n    [REDACTED:token]\n  user: bob'],
    [
      'Kubernetes Secret data (base64, any key)',
      `apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\ndata:\n  DATABASE_URL: ${Buffer.from('postgres://app:' + PW + '@db/app').toString('base64')}\n  config.json: ${Buffer.from('{"k":"' + V + '"}').toString('base64')}\ntype: Opaque`,
      'apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\ndata:\n  DATABASE_URL: [REDACTED:secret]\n  config.json: [REDACTED:secret]\ntype: Opaque',
    ],
    [
      'Kubernetes Secret stringData, kind after it',
      `apiVersion: v1\nstringData:\n  webhook: ${V}\nkind: Secret`,
      'apiVersion: v1\nstringData:\n  webhook: [REDACTED:secret]\nkind: Secret',
    ],
    [
      'Kubernetes Secret as JSON',
      `{\n  "apiVersion": "v1",\n  "data": {\n    "username": "${Buffer.from('admin').toString('base64')}",\n    "seed": "${Buffer.from(V).toString('base64')}"\n  },\n  "kind": "Secret"\n}`,
      '{\n  "apiVersion": "v1",\n  "data": {\n    "username": "[REDACTED:secret]",\n    "seed": "[REDACTED:secret]"\n  },\n  "kind": "Secret"\n}',
    ],
    ['.npmrc _authToken', `//registry.npmjs.org/:_authToken=${uuid(211)}`, '//registry.npmjs.org/:_authToken=[REDACTED:token]'],
    ['.npmrc _auth', `_auth=${Buffer.from('ci:' + PW).toString('base64')}`, '_auth=[REDACTED:credential]'],
    ['.npmrc _password', `//npm.example.com/:_password=${Buffer.from(PW).toString('base64')}`, '//npm.example.com/:_password=[REDACTED:password]'],
    ['.pypirc', `[pypi]\nusername = __token__\npassword = ${PW}`, '[pypi]\nusername = __token__\npassword = [REDACTED:password]'],
    ['.netrc on lines', `machine api.example.com\n  login bob\n  password ${PW}`, 'machine api.example.com\n  login bob\n  password [REDACTED:password]'],
    ['.netrc on one line', `machine api.example.com login bob password ${PW}`, 'machine api.example.com login bob password [REDACTED:password]'],
    ['.git-credentials', `https://bob:${V}@github.example.com`, 'https://bob:[REDACTED:url-password]@github.example.com'],
    ['curl -u on a continued line', `curl \\\n  -u admin:${PW} \\\n  https://api.example.com/x`, 'curl \\\n  -u admin:[REDACTED:password] \\\n  https://api.example.com/x'],
  ];
  for (const [name, input, expected] of cases) {
    it(`redacts ${name}`, () => {
      expect(scrubSecrets(input).text).toBe(expected);
    });
  }
});

describe('scrubSecrets: Authorization schemes', () => {
  const cases: [string, string, string][] = [
    ['Api-Token', `-H 'Authorization: Api-Token ${V}'`, "-H 'Authorization: Api-Token [REDACTED:authorization]'"],
    ['Api-Key', `Authorization: Api-Key ${V}`, 'Authorization: Api-Key [REDACTED:authorization]'],
    ['SSWS (Okta)', `"Authorization": "SSWS 00${pseudo(40, ALNUM + '_-', 213)}"`, '"Authorization": "SSWS [REDACTED:authorization]"'],
    ['Token', `authorization: Token ${pseudo(40, HEX, 215)}`, 'authorization: Token [REDACTED:authorization]'],
    [
      'Digest',
      `Authorization: Digest username="bob", realm="api", nonce="${pseudo(32, HEX, 217)}", uri="/x", response="${pseudo(32, HEX, 219)}"`,
      'Authorization: Digest [REDACTED:authorization]',
    ],
    ['a vendor word before the token', `Authorization: FlyV1 ${pseudo(40, ALNUM, 221)}`, 'Authorization: FlyV1 [REDACTED:authorization]'],
    ['no scheme', `Proxy-Authorization: ${pseudo(32, ALNUM, 223)}`, 'Proxy-Authorization: [REDACTED:authorization]'],
    ['a call with the header name', `conn.setRequestProperty("Authorization", "Basic ${Buffer.from('bob:' + PW).toString('base64')}");`, 'conn.setRequestProperty("Authorization", "Basic [REDACTED:authorization]");'],
  ];
  for (const [name, input, expected] of cases) {
    it(`redacts the credential, not the scheme: ${name}`, () => {
      expect(scrubSecrets(input).text).toBe(expected);
    });
  }
});

describe('scrubSecrets: vendor token formats', () => {
  const cases: [string, string, string][] = [
    ['huggingface-token', 'hf_' + pseudo(34, LETTERS, 301)],
    ['huggingface-token', 'api_org_' + pseudo(34, LETTERS, 303)],
    ['sourcegraph-token', 'sgp_' + pseudo(16, HEX, 305) + '_' + pseudo(40, HEX, 307)],
    ['notion-token', 'ntn_' + pseudo(11, '0123456789', 309) + pseudo(35, ALNUM, 311)],
    ['1password-secret-key', `A3-${pseudo(6, UPPER_DIGITS, 313)}-${pseudo(6, UPPER_DIGITS, 315)}-${pseudo(5, UPPER_DIGITS, 317)}-${pseudo(5, UPPER_DIGITS, 319)}-${pseudo(5, UPPER_DIGITS, 321)}-${pseudo(5, UPPER_DIGITS, 323)}`],
    ['1password-token', 'ops_eyJ' + pseudo(260, BASE64, 325)],
    ['azure-client-secret', `${pseudo(3, ALNUM, 327)}8Q~${pseudo(34, ALNUM + '_~.-', 329)}`],
    ['stripe-key', 'rk_' + 'live_' + pseudo(40, ALNUM, 331)],
    ['stripe-key', 'rk_' + 'test_' + pseudo(40, ALNUM, 333)],
    ['openshift-token', 'sha256~' + pseudo(43, ALNUM + '_-', 335)],
    ['sentry-token', 'sntryu_' + pseudo(64, HEX, 337)],
    ['sentry-token', 'sntrys_eyJ' + pseudo(80, BASE64, 339) + '_' + pseudo(43, BASE64, 341)],
    ['facebook-token', 'EAAG' + pseudo(150, ALNUM, 343)],
    ['digitalocean-token', 'dop_' + 'v1_' + pseudo(64, HEX, 345)],
    ['flyio-token', 'fm2_' + pseudo(120, BASE64, 347)],
    ['pypi-token', 'pypi-' + 'AgEIcHlwaS5vcmc' + pseudo(80, ALNUM + '_-', 349)],
    ['shopify-token', 'shpat_' + pseudo(32, HEX, 353)],
    ['linear-token', 'lin_' + 'api_' + pseudo(40, ALNUM, 355)],
    ['grafana-token', 'glsa_' + pseudo(32, ALNUM, 357) + '_' + pseudo(8, HEX, 359)],
    ['heroku-token', 'HRKU-' + 'AA' + pseudo(58, ALNUM + '_-', 361)],
    ['twilio-key', 'SK' + pseudo(32, HEX, 367)],
    ['age-secret-key', 'AGE-SECRET-KEY-1' + pseudo(58, 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L', 369)],
  ].map(([kind, token]) => [kind as string, `token is ${token as string} here`, `token is [REDACTED:${kind as string}] here`]);
  for (const [kind, input, expected] of cases) {
    it(`redacts ${kind}: ${input.slice(9, 25)}…`, () => {
      expect(scrubSecrets(input).text).toBe(expected);
    });
  }

  it('redacts Microsoft Teams and Office 365 webhooks', () => {
    const hook = `https://contoso.webhook.office.com/webhookb2/${uuid(371)}@${uuid(373)}/IncomingWebhook/${pseudo(32, HEX, 375)}/${uuid(377)}`;
    expect(scrubSecrets(`curl -d @msg.json ${hook}`).text).toBe('curl -d @msg.json [REDACTED:teams-webhook]');
  });
});

describe('scrubSecrets: fewer false alarms', () => {
  const untouched = [
    // Placeholders
    'GITHUB_TOKEN=ghp_' + 'x'.repeat(36),
    'export SLACK_BOT_TOKEN=xoxb-' + 'xxxxxxxxxxxx-xxxxxxxxxxxxx-xxxxxxxxxxxxxxxxxxxxxxxx',
    'aws_access_key_id = AKIA' + 'X'.repeat(16),
    'aws_access_key_id = AKIA' + 'IOSFODNN7' + 'EXAMPLE',
    'HF_TOKEN=hf_' + 'a'.repeat(34),
    'API_TOKEN=<your-token>',
    'password: ${TOKEN}',
    'DB_PASSWORD=changeme',
    'SECRET_KEY=' + '0'.repeat(32),
    'api_key = "' + 'x'.repeat(8) + '-' + 'x'.repeat(8) + '"',
    // Names that only look secret
    `public_key: ${pseudo(44, ALNUM, 401)}`,
    `primaryKey: "${pseudo(24, ALNUM, 403)}"`,
    `foreignKey = "${pseudo(24, ALNUM, 405)}"`,
    `key_down_event: ${pseudo(24, ALNUM, 407)}`,
    `nonMatchingToken = "${pseudo(12, LETTERS, 409)}"`,
    `<meta name="csrf-token" content="${pseudo(86, ALNUM + '_-', 411)}" />`,
    `<input type="hidden" name="authenticity_token" value="${pseudo(86, ALNUM + '_-', 413)}">`,
    `csrf_token: "${pseudo(40, ALNUM, 415)}"`,
    // Versions and Maven coordinates
    '[INFO] +- io.jsonwebtoken:jjwt-jackson:jar:0.11.2:runtime',
    'implementation "io.jsonwebtoken:jjwt-jackson-0.11.2"',
    'token_version=2.4.1',
    // A PEM block without a real body
    '-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----',
    '-----BEGIN PRIVATE KEY-----\n<your key here>\n-----END PRIVATE KEY-----',
    'if line.startswith("-----BEGIN OPENSSH PRIVATE KEY-----"):',
    // Ordinary words after a scheme-looking word
    'Authorization: Token authentication is enabled for this endpoint',
  ];
  for (const text of untouched) {
    it(`keeps ${JSON.stringify(text.slice(0, 60))}`, () => {
      expect(scrubSecrets(text).text).toBe(text);
    });
  }
});

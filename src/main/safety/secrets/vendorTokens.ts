/**
 * Vendor tokens with a fixed prefix that tokenFormats.ts does not know: Hugging Face, Sourcegraph,
 * Notion, 1Password, DigitalOcean, Fly.io, Sentry, Shopify, Facebook, Azure AD client secrets,
 * OpenShift … (the prefix rules of gitleaks' rule set, written anew; see docs/safety.md).
 *
 * Every row's prefix is a keyword of the scrubber's one keyword pass; where one is found, the
 * rows for its first two characters check the body with a sticky regex. A token must start where a
 * run of token characters starts and end where it ends, and a body that is a placeholder
 * (`hf_xxxx…`, one character repeated) is left alone.
 */
import type { KeywordHits } from './keywordScan';
import { redacted, type PatternDetector, type Replacement } from './redaction';
import { SEQUENCE_RUN, holdsSequence, isTypedTokenBody } from './fakeValues';

interface VendorToken {
  kind: string;
  /** The literal the token starts with (case-sensitive). */
  prefix: string;
  /** The whole token, prefix included, anchored where the prefix starts (sticky, no flags needed). */
  body: RegExp;
  /** The body says itself which characters may stand before the token (rows moved here from tokenFormats.ts keep their rule). */
  ownBoundary?: boolean;
  /** A match that is documentation rather than a token, beyond the placeholders every row leaves (isPlaceholderToken). */
  fake?: (token: string) => boolean;
}

const END = '(?![A-Za-z0-9_+/=-])';
const WORD_END = '(?![A-Za-z0-9_-])';

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const GITLAB_KINDS = ['pat', 'dt', 'rt', 'ptt', 'ft', 'imt', 'oas', 'cbt', 'soat', 'ffct', 'agent'];
/**
 * Slack tokens by kind: each body has the shape Slack issues (numeric ids, then the secret), so
 * that `xoxb-12345-abcd234` or `xoxp-1234567890` in documentation is not one.
 */
const SLACK_BODIES: Record<string, string> = {
  // Bot: `xoxb-<team id>-<bot id>-<24+>`, and the legacy `xoxb-<id>-<18–26>`.
  'xoxb-': '[0-9]{8,14}-(?:[0-9]{8,14}-?)?[A-Za-z0-9]{18,48}(?:-[A-Za-z0-9]+)*',
  // User and refresh: three numeric ids, then 28–34 characters; the refresh token's `xoxe-1-<146>`.
  'xoxp-': '(?:-?[0-9]{8,14}){3}-[A-Za-z0-9]{28,34}',
  'xoxe-': '(?:(?:-?[0-9]{8,14}){3}-[A-Za-z0-9]{28,34}|[0-9]-[A-Za-z0-9]{140,150})',
  // Legacy workspace (`xoxa-2-…`, `xoxr-…`) and legacy user tokens (`xoxo-`, `xoxs-`).
  'xoxa-': '(?:[0-9]-)?[A-Za-z0-9]{8,48}(?:-[A-Za-z0-9]{4,48})*',
  'xoxr-': '(?:[0-9]-)?[A-Za-z0-9]{8,48}(?:-[A-Za-z0-9]{4,48})*',
  'xoxo-': '[0-9]+-[0-9]+-[0-9]+-[A-Fa-f0-9]+',
  'xoxs-': '[0-9]+-[0-9]+-[0-9]+-[A-Fa-f0-9]+',
  // App-level: `xapp-1-A…-<digits>-<hex>`.
  'xapp-': '[0-9]-[A-Za-z0-9]+-[0-9]+-[A-Za-z0-9]+',
};
/**
 * A bot or user token whose first id is a few digits (`xoxp-1234-1234-1234-<hex>`): written for
 * documentation, since Slack's ids have eight digits or more. A name above it does not make it a
 * secret.
 */
export const isDocumentationSlackToken = (v: string): boolean => v.charCodeAt(0) === 120 && /^xox[bp]-[0-9]{1,7}-/.test(v);

const ROWS: VendorToken[] = [
  // Formats tokenFormats.ts knew, found here in the same pass, each with its own boundary: GitHub, npm, Stripe, AWS, Anthropic, GitLab, Slack, Google, Vault.
  ...['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'].map((prefix) => ({ kind: 'github-token', prefix, ownBoundary: true, body: new RegExp(`(?<![A-Za-z0-9_])${prefix}[A-Za-z0-9]{36,255}(?![A-Za-z0-9])`) })),
  { kind: 'github-token', prefix: 'github_pat_', ownBoundary: true, body: /(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{22,255}(?![A-Za-z0-9_])/ },
  { kind: 'npm-token', prefix: 'npm_', ownBoundary: true, body: /(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/ },
  ...['sk_', 'rk_'].map((prefix) => ({ kind: 'stripe-key', prefix, ownBoundary: true, body: new RegExp(`(?<![A-Za-z0-9_])${prefix}(?:live|test|prod)_[A-Za-z0-9]{10,}(?![A-Za-z0-9])`) })),
  { kind: 'stripe-key', prefix: 'whsec_', ownBoundary: true, body: /(?<![A-Za-z0-9_])whsec_[A-Za-z0-9+/]{20,}(?![A-Za-z0-9])/ },
  ...['AKIA', 'ASIA', 'ABIA', 'ACCA'].map((prefix) => ({ kind: 'aws-access-key', prefix, ownBoundary: true, body: new RegExp(`(?<![A-Za-z0-9])${prefix}[A-Z0-9]{16}(?![A-Za-z0-9])`) })),
  // AWS session tokens: base64 of a fixed binary header ("!\n\torigin_ec…", older "\x17\n\x06…aws").
  ...['IQoJb3JpZ2luX2Vj', 'FwoGZXIvYXdzE'].map((prefix) => ({ kind: 'aws-session-token', prefix, ownBoundary: true, body: new RegExp(`(?<![A-Za-z0-9+/])${prefix}[A-Za-z0-9+/]{50,}={0,2}`) })),
  // `sk-ant-api03-`, `sk-ant-admin01-`, `sk-ant-oat01-` …: 93 characters, then `AA`. A key of another length (cut, or pasted into a test) is still one, unless typed by hand (`sk-ant-api03-abc123xyz-…klmnopqrstuvwx…`).
  {
    kind: 'anthropic-api-key',
    prefix: 'sk-ant-',
    ownBoundary: true,
    body: /(?<![A-Za-z0-9_-])sk-ant-[a-z]{3,6}[0-9]{2}-[A-Za-z0-9_-]{40,}(?![A-Za-z0-9_-])/,
    fake: (token) => !/^sk-ant-[a-z]{3,6}[0-9]{2}-[A-Za-z0-9_-]{93}AA$/.test(token) && holdsSequence(token.slice(token.indexOf('-', 7) + 1), SEQUENCE_RUN),
  },
  ...GITLAB_KINDS.map((k) => ({ kind: 'gitlab-token', prefix: `gl${k}-`, ownBoundary: true, body: new RegExp(`(?<![A-Za-z0-9_-])gl${k}-[A-Za-z0-9_-]{20,}(?:\\.[0-9a-z]{9})?(?![A-Za-z0-9_-])`) })),
  ...Object.entries(SLACK_BODIES).map(([prefix, body]) => ({ kind: 'slack-token', prefix, ownBoundary: true, body: new RegExp(`(?<![A-Za-z0-9_-])${prefix}${body}${WORD_END}`) })),
  { kind: 'google-api-key', prefix: 'AIza', ownBoundary: true, body: /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/ },
  { kind: 'google-oauth-token', prefix: 'ya29.', ownBoundary: true, body: /(?<![A-Za-z0-9_.-])ya29\.[0-9A-Za-z_-]{20,}/ },
  ...['hvs.', 'hvb.', 'hvr.'].map((prefix) => ({ kind: 'vault-token', prefix, ownBoundary: true, body: new RegExp(`(?<![A-Za-z0-9_.-])${escapeRegex(prefix)}[A-Za-z0-9_-]{24,}`) })),
  { kind: 'huggingface-token', prefix: 'hf_', body: new RegExp(`hf_[A-Za-z]{34}${WORD_END}`) },
  { kind: 'huggingface-token', prefix: 'api_org_', body: new RegExp(`api_org_[A-Za-z]{34}${WORD_END}`) },
  { kind: 'sourcegraph-token', prefix: 'sgp_', body: new RegExp(`sgp_(?:(?:[a-fA-F0-9]{16}|local)_)?[a-fA-F0-9]{40}${WORD_END}`) },
  { kind: 'notion-token', prefix: 'ntn_', body: new RegExp(`ntn_[0-9]{11}[A-Za-z0-9]{35}${WORD_END}`) },
  { kind: 'notion-token', prefix: 'secret_', body: new RegExp(`secret_[A-Za-z0-9]{43}${WORD_END}`) },
  { kind: '1password-secret-key', prefix: 'A3-', body: new RegExp(`A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}${WORD_END}`) },
  { kind: '1password-token', prefix: 'ops_eyJ', body: new RegExp(`ops_eyJ[A-Za-z0-9+/_-]{200,}={0,3}${END}`) },
  { kind: 'openshift-token', prefix: 'sha256~', body: new RegExp(`sha256~[A-Za-z0-9_-]{43}${WORD_END}`) },
  { kind: 'sentry-token', prefix: 'sntrys_', body: new RegExp(`sntrys_eyJ[A-Za-z0-9+/=]{20,400}_[A-Za-z0-9+/]{43}${END}`) },
  { kind: 'sentry-token', prefix: 'sntryu_', body: new RegExp(`sntryu_[a-f0-9]{64}${WORD_END}`) },
  { kind: 'facebook-token', prefix: 'EAA', body: new RegExp(`EAA[A-Z][A-Za-z0-9]{90,}${WORD_END}`) },
  { kind: 'square-token', prefix: 'EAAA', body: new RegExp(`EAAA[A-Za-z0-9_-]{56,60}${WORD_END}`) },
  { kind: 'age-secret-key', prefix: 'AGE-SECRET-KEY-1', body: /AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}(?![A-Za-z0-9])/ },
  { kind: 'artifactory-token', prefix: 'AKCp', body: /AKCp[A-Za-z0-9]{69}(?![A-Za-z0-9])/ },
  { kind: 'aws-bedrock-key', prefix: 'ABSK', body: new RegExp(`ABSK[A-Za-z0-9+/]{109,269}={0,2}${END}`) },
  { kind: 'clojars-token', prefix: 'CLOJARS_', body: /CLOJARS_[A-Za-z0-9]{60}(?![A-Za-z0-9])/ },
  ...['dop_v1_', 'doo_v1_', 'dor_v1_'].map((prefix) => ({ kind: 'digitalocean-token', prefix, body: new RegExp(`${prefix}[a-f0-9]{64}(?![A-Za-z0-9])`) })),
  { kind: 'duffel-token', prefix: 'duffel_', body: /duffel_(?:test|live)_[A-Za-z0-9_=-]{43}/ },
  { kind: 'flyio-token', prefix: 'fo1_', body: new RegExp(`fo1_[A-Za-z0-9_-]{43}${WORD_END}`) },
  ...['fm1a_', 'fm1r_', 'fm2_'].map((prefix) => ({ kind: 'flyio-token', prefix, body: new RegExp(`fm(?:1[ar]|2)_[A-Za-z0-9+/]{100,}={0,3}(?:,fm(?:1[ar]|2)_[A-Za-z0-9+/]{100,}={0,3})*${END}`) })),
  { kind: 'grafana-token', prefix: 'glc_', body: new RegExp(`glc_[A-Za-z0-9+/]{32,400}={0,3}${END}`) },
  { kind: 'grafana-token', prefix: 'glsa_', body: new RegExp(`glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}${END}`) },
  { kind: 'heroku-token', prefix: 'HRKU-', body: new RegExp(`HRKU-(?:AA)?[A-Za-z0-9_-]{58,}${WORD_END}`) },
  { kind: 'linear-token', prefix: 'lin_', body: /lin_(?:api|oauth)_[A-Za-z0-9]{40}(?![A-Za-z0-9])/ },
  { kind: 'planetscale-token', prefix: 'pscale_', body: /pscale_(?:tkn|oauth|pw)_[A-Za-z0-9_=.-]{32,64}/ },
  { kind: 'prefect-key', prefix: 'pnu_', body: /pnu_[A-Za-z0-9]{36}(?![A-Za-z0-9])/ },
  { kind: 'pypi-token', prefix: 'pypi-AgE', body: /pypi-AgE[A-Za-z0-9_-]{50,}/ },
  { kind: 'readme-key', prefix: 'rdme_', body: /rdme_[a-z0-9]{70}(?![A-Za-z0-9])/ },
  { kind: 'rubygems-key', prefix: 'rubygems_', body: /rubygems_[a-f0-9]{48}(?![A-Za-z0-9])/ },
  { kind: 'settlemint-token', prefix: 'sm_', body: /sm_[aps]at_[A-Za-z0-9]{16}(?![A-Za-z0-9])/ },
  { kind: 'shippo-token', prefix: 'shippo_', body: /shippo_(?:live|test)_[a-fA-F0-9]{40}(?![A-Za-z0-9])/ },
  ...['shpat_', 'shpca_', 'shppa_', 'shpss_'].map((prefix) => ({ kind: 'shopify-token', prefix, body: new RegExp(`${prefix}[a-fA-F0-9]{32}(?![A-Za-z0-9])`) })),
  ...['squ_', 'sqp_', 'sqa_'].map((prefix) => ({ kind: 'sonar-token', prefix, body: new RegExp(`${prefix}[a-f0-9]{40}(?![A-Za-z0-9])`) })),
  { kind: 'twilio-key', prefix: 'SK', body: /SK(?=[a-f]*[0-9])(?=[0-9]*[a-f])[a-f0-9]{32}(?![A-Za-z0-9])/ },
  { kind: 'typeform-token', prefix: 'tfp_', body: /tfp_[A-Za-z0-9_.=-]{59}/ },
  { kind: 'yandex-key', prefix: 'AQVN', body: /AQVN[A-Za-z0-9_-]{35,38}(?![A-Za-z0-9_-])/ },
  // Prefixes that each cost a search of their own before the keyword pass: now one keyword each.
  { kind: 'adobe-secret', prefix: 'p8e-', body: new RegExp(`p8e-[A-Za-z0-9]{32}${WORD_END}`) },
  { kind: 'alibaba-key', prefix: 'LTAI', body: new RegExp(`LTAI[A-Za-z0-9]{20}${WORD_END}`) },
  { kind: 'aws-access-key', prefix: 'A3T', body: /A3T[A-Z0-9][A-Z2-7]{16}(?![A-Za-z0-9])/ },
  { kind: 'artifactory-token', prefix: 'cmVmd', body: /cmVmd[A-Za-z0-9]{59}(?![A-Za-z0-9])/ },
  { kind: 'cloudflare-origin-ca-key', prefix: 'v1.0-', body: new RegExp(`v1\\.0-[a-f0-9]{24}-[a-f0-9]{146}${WORD_END}`) },
  { kind: 'databricks-token', prefix: 'dapi', body: /dapi[a-f0-9]{32}(?:-\d)?(?![A-Za-z0-9_])/ },
  { kind: 'doppler-token', prefix: 'dp.pt.', body: new RegExp(`dp\\.pt\\.[A-Za-z0-9]{43}${WORD_END}`) },
  { kind: 'dynatrace-token', prefix: 'dt0c01.', body: new RegExp(`dt0c01\\.[A-Za-z0-9]{24}\\.[A-Za-z0-9]{64}${WORD_END}`) },
  ...['EZAK', 'EZTK'].map((prefix) => ({ kind: 'easypost-key', prefix, body: new RegExp(`${prefix}[A-Za-z0-9]{54}${WORD_END}`) })),
  ...['FLWSECK_TEST-', 'FLWSECK-', 'FLWPUBK_TEST-', 'FLWPUBK-'].map((prefix) => ({ kind: 'flutterwave-key', prefix, body: new RegExp(`${prefix}[A-Ha-h0-9]{12,32}(?:-X)?${WORD_END}`) })),
  { kind: 'frameio-token', prefix: 'fio-u-', body: new RegExp(`fio-u-[A-Za-z0-9_=-]{64}${WORD_END}`) },
  { kind: 'grafana-token', prefix: 'eyJrIjoi', body: new RegExp(`eyJrIjoi[A-Za-z0-9]{60,400}={0,3}${END}`) },
  ...['pat.', 'sat.'].map((prefix) => ({ kind: 'harness-key', prefix, body: new RegExp(`${escapeRegex(prefix)}[A-Za-z0-9_-]{22}\\.[A-Za-z0-9]{24}\\.[A-Za-z0-9]{20}${WORD_END}`) })),
  { kind: 'perplexity-key', prefix: 'pplx-', body: new RegExp(`pplx-[A-Za-z0-9]{48}${WORD_END}`) },
  { kind: 'postman-key', prefix: 'PMAK-', body: new RegExp(`PMAK-[A-Fa-f0-9]{24}-[A-Fa-f0-9]{34}${WORD_END}`) },
  { kind: 'pulumi-token', prefix: 'pul-', body: new RegExp(`pul-[a-f0-9]{40}${WORD_END}`) },
  { kind: 'scalingo-token', prefix: 'tk-us-', body: new RegExp(`tk-us-[A-Za-z0-9_-]{48}${WORD_END}`) },
  { kind: 'sendgrid-key', prefix: 'SG.', body: new RegExp(`SG\\.[A-Za-z0-9_-]{16,32}\\.[A-Za-z0-9_-]{16,64}${WORD_END}`) },
  { kind: 'sendinblue-key', prefix: 'xkeysib-', body: new RegExp(`xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}${WORD_END}`) },
  ...['sq0atp-', 'sq0csp-'].map((prefix) => ({ kind: 'square-token', prefix, body: new RegExp(`${prefix}[A-Za-z0-9_-]{22,60}${WORD_END}`) })),
  { kind: 'new-relic-key', prefix: 'NRAK-', body: new RegExp(`NRAK-[A-Za-z0-9]{27}${WORD_END}`) },
  { kind: 'new-relic-key', prefix: 'NRII-', body: new RegExp(`NRII-[A-Za-z0-9-]{32}${WORD_END}`) },
  { kind: 'new-relic-key', prefix: 'NRJS-', body: new RegExp(`NRJS-[a-f0-9]{19}${WORD_END}`) },
  ...['s-s4t2ud-', 's-s4t2af-'].map((prefix) => ({ kind: 'intra42-secret', prefix, body: new RegExp(`${prefix}[a-f0-9]{64}${WORD_END}`) })),
  { kind: 'defined-networking-token', prefix: 'dnkey-', body: new RegExp(`dnkey-[A-Za-z0-9=_-]{26}-[A-Za-z0-9=_-]{52}${WORD_END}`) },
  { kind: 'dropbox-token', prefix: 'sl.', body: new RegExp(`sl\\.[A-Za-z0-9_=-]{130,152}${WORD_END}`) },
  { kind: 'gitlab-token', prefix: 'GR1348941', body: new RegExp(`GR1348941[A-Za-z0-9_-]{20}${WORD_END}`) },
  { kind: 'gitlab-session', prefix: '_gitlab_session=', ownBoundary: true, body: /_gitlab_session=[0-9a-z]{32}(?![A-Za-z0-9])/ },
  ...['xoxe.xoxb-', 'xoxe.xoxp-'].map((prefix) => ({ kind: 'slack-token', prefix, ownBoundary: true, body: new RegExp(`(?<![A-Za-z0-9_-])${escapeRegex(prefix)}\\d-[A-Za-z0-9]{150,170}${WORD_END}`) })),
  { kind: 'octopus-deploy-key', prefix: 'API-', body: /API-(?=[A-Z]*[0-9])(?=[0-9]*[A-Z])[A-Z0-9]{26}(?![A-Za-z0-9_-])/ },
  { kind: 'clickhouse-secret', prefix: '4b1d', body: /4b1d(?=[0-9a-f]*[g-zA-Z])[A-Za-z0-9]{38}(?![A-Za-z0-9])/ },
  // Twitter/X app-only bearer tokens: 22 A's (a zero prefix in base64), then the token.
  { kind: 'twitter-bearer-token', prefix: 'AAAAAAAAAAAAAAAAAAAAA', body: /A{22}[A-Za-z0-9%]{80,110}(?![A-Za-z0-9%])/ },
];

/** Rows by the first two characters of their prefix: a candidate is looked up by its own first two. */
const BUCKETS: ({ row: VendorToken; sticky: RegExp }[] | undefined)[] = [];
for (const row of [...ROWS].sort((a, b) => b.prefix.length - a.prefix.length)) {
  const key = row.prefix.charCodeAt(0) * 128 + row.prefix.charCodeAt(1);
  (BUCKETS[key] ??= []).push({ row, sticky: new RegExp(row.body.source, 'y') });
}
const AZURE = { row: { kind: 'azure-client-secret', prefix: '', body: /./ }, sticky: /[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/y };

/** A run of consecutive letters or digits this long in a token's body is an alphabet typed out (`AIzaSyabcdefghijklmnopqrstuvwxyz…`). */
const ALPHABET_RUN = 20;

/**
 * A body typed by hand rather than issued (fakeValues.ts): x's (`hf_xxxx…`), one character
 * throughout (`xoxp-0000…`, `AGE-SECRET-KEY-1QQQ…`) or a repeated unit (`GR1348941123123123…`),
 * AWS's `…EXAMPLE` keys, an alphabet typed out: a placeholder, not a token. A shorter keyboard run
 * (`abc123xyz-…klmnopqrstuvwx`, 14) is not enough on its own: documentation writes well-formed
 * example keys that way, and the format's exact length is what tells a pasted fake from a real
 * key (see the Anthropic row).
 */
export function isPlaceholderToken(token: string, prefixLength: number): boolean {
  if (isTypedTokenBody(token, prefixLength)) return true;
  if (holdsSequence(token.slice(prefixLength), ALPHABET_RUN)) return true;
  // A placeholder word that starts a part of the token (`ghp_your_token_here`, `sk-fake-key`); inside
  // a random body (`…5yfakEjX…`) the same letters are chance, and one token in thousands has them.
  return /(?:^|[^A-Za-z0-9])(?:your|example|placeholder|dummy|fake|redacted)/i.test(token);
}

function tryRow(text: string, start: number, entry: { row: VendorToken; sticky: RegExp }): Replacement | undefined {
  entry.sticky.lastIndex = start;
  const m = entry.sticky.exec(text);
  if (!m || isPlaceholderToken(m[0], entry.row.prefix.length) || entry.row.fake?.(m[0])) return undefined;
  return { start, end: start + m[0].length, text: redacted(entry.row.kind), kind: entry.row.kind };
}

const isAlnum = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
/** Characters a token may not be glued to on its left: it would be the middle of a longer word, path or base64 run. */
const gluedLeft = (c: number): boolean => isAlnum(c) || c === 95 || c === 45 || c === 46 || c === 126 || c === 43 || c === 47; // _ - . ~ + /

/** The token starting at `start` (the start of a word), if a row's prefix starts there and its body follows. */
function tokenAt(text: string, start: number): Replacement | undefined {
  const bucket = BUCKETS[text.charCodeAt(start) * 128 + text.charCodeAt(start + 1)];
  if (!bucket) return undefined;
  const glued = start > 0 && gluedLeft(text.charCodeAt(start - 1));
  for (const entry of bucket) {
    if ((glued && !entry.row.ownBoundary) || !text.startsWith(entry.row.prefix, start)) continue;
    const found = tryRow(text, start, entry);
    if (found) return found;
  }
  return undefined;
}

/** Azure AD client secrets are found from their `Q~`, four characters into the token. */
const AZURE_MARK = 'Q~';

/** What the scrubber's keyword pass looks for on behalf of `scanVendorTokens`: every row's prefix, and Azure's `Q~`. */
export const VENDOR_TOKEN_KEYWORDS: readonly string[] = [...new Set([...ROWS.map((row) => row.prefix), AZURE_MARK])];

/**
 * Where the one search this scan used to make stopped for a prefix found at [start, end): its
 * first `_` or `~` (the word before it was looked up), else its first character. Candidates are
 * taken in that order, as they always were, so that overlapping ones resolve as before.
 */
function searchPoint(text: string, start: number, end: number): number {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 95 || c === 126) return i;
  }
  return start;
}

/** Vendor tokens with a fixed prefix, wherever the keyword pass found one of the prefixes (or Azure's `Q~`). */
export function scanVendorTokens(text: string, prefixes: KeywordHits): Replacement[] {
  const { starts } = prefixes;
  const points = Int32Array.from(starts, (start, h) => searchPoint(text, start, prefixes.ends[h] as number));
  // In the order of their search points (ties in the order found); mostly that already is the order of the hits.
  let order: number[] | undefined;
  for (let h = 1; h < points.length && order === undefined; h++) if ((points[h] as number) < (points[h - 1] as number)) order = Array.from(points, (_, i) => i).sort((a, b) => (points[a] as number) - (points[b] as number));
  const found: Replacement[] = [];
  let resumeAt = 0;
  let lastAt = -1;
  for (let h = 0; h < points.length; h++) {
    const i = order === undefined ? h : (order[h] as number);
    const at = points[i] as number;
    const start = starts[i] as number;
    if (at < resumeAt || at === lastAt) continue;
    lastAt = at;
    let r: Replacement | undefined;
    if (text.startsWith(AZURE_MARK, start)) {
      if (at >= 5 && !(at > 5 && gluedLeft(text.charCodeAt(at - 6)))) r = tryRow(text, at - 5, AZURE);
    } else {
      r = tokenAt(text, start);
    }
    if (r) {
      found.push(r);
      if (r.end > at) resumeAt = r.end;
    }
  }
  // A token found from its `_` starts before that `_`, so one may overlap a token found earlier.
  found.sort((a, b) => a.start - b.start);
  return found.filter((r, i) => i === 0 || r.start >= (found[i - 1] as Replacement).end);
}

/** Where a Teams webhook holding `office.com/webhook` at `at` starts: `https://outlook.` before it, or `https://<tenant>.webhook.`. */
function teamsWebhookStarts(text: string, at: number): number[] {
  const starts: number[] = [];
  let k = at - '.webhook.'.length;
  if (text.startsWith('.webhook.', k)) {
    const tenantEnd = k;
    while (k > 0 && (isAlnum(text.charCodeAt(k - 1)) || text.charCodeAt(k - 1) === 45)) k--;
    if (k < tenantEnd && text.startsWith('https://', k - 8)) starts.push(k - 8);
  }
  if (text.startsWith('https://outlook.', at - 16)) starts.push(at - 16);
  return starts;
}

/** Tokens whose fixed part is not at their start, each found from that part (rare in text). */
export const VENDOR_TOKEN_PATTERNS: readonly PatternDetector[] = [
  // Microsoft Teams / Office 365 incoming webhooks (old and new hosts).
  {
    kind: 'teams-webhook',
    keywords: ['office.com/webhook'],
    startsFrom: teamsWebhookStarts,
    pattern: /https:\/\/[A-Za-z0-9-]+\.webhook\.office\.com\/webhookb2\/[A-Za-z0-9@-]{20,120}\/IncomingWebhook\/[A-Za-z0-9]{20,40}\/[A-Za-z0-9-]{20,40}(?:\/[A-Za-z0-9_-]{20,80})?|https:\/\/outlook\.office\.com\/webhook\/[A-Za-z0-9@-]{20,120}\/IncomingWebhook\/[A-Za-z0-9]{20,40}\/[A-Za-z0-9-]{20,40}/g,
  },

];

/**
 * Values whose format has no prefix of its own, recognised by the vendor named just before them:
 * `cloudflare: "<37 hex>"`, `SONAR_LOGIN = "<40>"`, `sumologic.accessId = "su…"`,
 * `"artifactory", "<64>"`, `sourcegraph: <40 hex>`. A name that says secret (`DATADOG_API_KEY`)
 * is caught by the name rule anyway; these rows are for names that only name the vendor, and
 * give the value a kind that says whose it is.
 *
 * The shape is what gitleaks' keyword-scoped rules look for (written anew here): the vendor's
 * word, up to 20 more name characters, an assignment operator (`=`, `:`, `:=`, `::=`, `?=`,
 * `=>`, `,` …), up to five quotes or blanks, then a value of the vendor's exact format ending at a
 * quote, blank, `;` or the line's end. Every repetition is bounded, so a look costs the same
 * however long the text. In prose the value must be quoted or in backticks, within a few words
 * of the vendor's name (``the sumo access id is `su…` ``).
 */
import type { KeywordHits } from './keywordScan';
import { redacted, type Replacement, type ScanDetector } from './redaction';
import { isMostlyRuns } from './fakeValues';

interface VendorNamed {
  /** What a redaction reports: `[REDACTED:<kind>]`. */
  kind: string;
  /** Words that name the vendor (matched in any case unless `caseSensitive`). */
  words: readonly string[];
  /** The value's formats (regex sources, letters in any case). */
  values: readonly string[];
  /** The vendor's word must be written like this (`Sumo`, `SUMO`, not the `sumOf` of `sumOfExposures`). */
  caseSensitive?: RegExp;
  /** A blank may stand for the operator (`bundle config enterprise.contribsys.com <user>:<password>`). */
  blankIsOperator?: boolean;
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

const ROWS: readonly VendorNamed[] = [
  { kind: 'adafruit-key', words: ['adafruit'], values: ['[a-z0-9_-]{32}'] },
  { kind: 'adobe-client-id', words: ['adobe'], values: ['[a-f0-9]{32}'] },
  { kind: 'airtable-key', words: ['airtable'], values: ['[a-z0-9]{17}', 'pat[a-z0-9]{14}\\.[a-f0-9]{64}'] },
  { kind: 'algolia-key', words: ['algolia'], values: ['[a-z0-9]{32}'] },
  { kind: 'alibaba-secret', words: ['alibaba'], values: ['[a-z0-9]{30}'] },
  { kind: 'asana-secret', words: ['asana'], values: ['[0-9]{16}', '[a-z0-9]{32}'] },
  { kind: 'atlassian-token', words: ['atlassian', 'confluence', 'jira'], values: ['[a-z0-9]{20}[a-f0-9]{4}', 'ATATT3[a-z0-9_=-]{186}'] },
  { kind: 'beamer-token', words: ['beamer'], values: ['b_[a-z0-9=_-]{44}'] },
  { kind: 'bitbucket-secret', words: ['bitbucket'], values: ['[a-z0-9]{32}', '[a-z0-9=_-]{64}'] },
  { kind: 'bittrex-key', words: ['bittrex'], values: ['[a-z0-9]{32}'] },
  { kind: 'meraki-key', words: ['meraki'], values: ['[0-9a-f]{40}'] },
  { kind: 'cloudflare-key', words: ['cloudflare'], values: ['[a-z0-9_-]{40}', '[a-f0-9]{37}'] },
  { kind: 'codecov-token', words: ['codecov'], values: ['[a-z0-9]{32}'] },
  { kind: 'cohere-key', words: ['cohere', 'co_api_key'], values: ['[a-z0-9]{40}'] },
  { kind: 'coinbase-token', words: ['coinbase'], values: ['[a-z0-9_-]{64}'] },
  { kind: 'confluent-key', words: ['confluent'], values: ['[a-z0-9]{16}', '[a-z0-9]{64}'] },
  { kind: 'contentful-token', words: ['contentful'], values: ['[a-z0-9=_-]{43}'] },
  { kind: 'datadog-token', words: ['datadog'], values: ['[a-z0-9]{40}'] },
  { kind: 'discord-secret', words: ['discord'], values: ['[a-f0-9]{64}', '[0-9]{18}', '[a-z0-9=_-]{32}'] },
  { kind: 'droneci-token', words: ['droneci'], values: ['[a-z0-9]{32}'] },
  { kind: 'dropbox-token', words: ['dropbox'], values: ['[a-z0-9]{15}', 'sl\\.[a-z0-9=_-]{135}', '[a-z0-9]{11}AAAAAAAAAA[a-z0-9_=-]{43}'] },
  { kind: 'etsy-token', words: ['etsy'], values: ['[a-z0-9]{24}'], caseSensitive: /^(?:ETSY|[Ee]tsy)$/ },
  { kind: 'facebook-secret', words: ['facebook'], values: ['[a-f0-9]{32}'] },
  { kind: 'fastly-token', words: ['fastly'], values: ['[a-z0-9=_-]{32}'] },
  { kind: 'finicity-secret', words: ['finicity'], values: ['[a-f0-9]{32}', '[a-z0-9]{20}'] },
  { kind: 'finnhub-token', words: ['finnhub'], values: ['[a-z0-9]{20}'] },
  { kind: 'flickr-token', words: ['flickr'], values: ['[a-z0-9]{32}'] },
  { kind: 'freshbooks-token', words: ['freshbooks'], values: ['[a-z0-9]{64}'] },
  { kind: 'gitter-token', words: ['gitter'], values: ['[a-z0-9_-]{40}'] },
  { kind: 'gocardless-token', words: ['gocardless'], values: ['live_[a-z0-9_=-]{40}'] },
  { kind: 'heroku-key', words: ['heroku'], values: [UUID] },
  { kind: 'hubspot-key', words: ['hubspot'], values: [UUID] },
  { kind: 'intercom-token', words: ['intercom'], values: ['[a-z0-9=_-]{60}'] },
  { kind: 'jfrog-token', words: ['jfrog', 'artifactory', 'bintray', 'xray'], values: ['[a-z0-9]{73}', '[a-z0-9]{64}'] },
  { kind: 'kraken-token', words: ['kraken'], values: ['[a-z0-9/=_+-]{80,90}'] },
  { kind: 'kucoin-secret', words: ['kucoin'], values: ['[a-f0-9]{24}', UUID] },
  { kind: 'launchdarkly-token', words: ['launchdarkly'], values: ['[a-z0-9=_-]{40}'] },
  { kind: 'linear-secret', words: ['linear'], values: ['[a-f0-9]{32}'] },
  { kind: 'linkedin-secret', words: ['linkedin', 'linked_in', 'linked-in'], values: ['[a-z0-9]{14}', '[a-z0-9]{16}'] },
  { kind: 'looker-secret', words: ['looker'], values: ['[a-z0-9]{20}', '[a-z0-9]{24}'] },
  { kind: 'mailchimp-key', words: ['mailchimp'], values: ['[a-f0-9]{32}-us[0-9]{2}'] },
  { kind: 'mailgun-key', words: ['mailgun'], values: ['key-[a-f0-9]{32}', 'pubkey-[a-f0-9]{32}', '[a-h0-9]{32}-[a-h0-9]{8}-[a-h0-9]{8}'] },
  { kind: 'mapbox-token', words: ['mapbox'], values: ['pk\\.[a-z0-9]{60}\\.[a-z0-9]{22}'] },
  { kind: 'mattermost-token', words: ['mattermost'], values: ['[a-z0-9]{26}'] },
  { kind: 'messagebird-key', words: ['messagebird', 'message_bird', 'message-bird'], values: ['[a-z0-9]{25}', UUID] },
  { kind: 'netlify-token', words: ['netlify'], values: ['[a-z0-9=_-]{40,46}'] },
  { kind: 'new-relic-key', words: ['newrelic', 'new_relic', 'new-relic'], values: ['[a-z0-9]{64}'] },
  { kind: 'nytimes-token', words: ['nytimes', 'newyorktimes', 'new-york-times'], values: ['[a-z0-9=_-]{32}'] },
  { kind: 'okta-token', words: ['okta'], values: ['00[a-z0-9_=-]{40}'], caseSensitive: /^(?:OKTA|[Oo]kta)$/ },
  { kind: 'plaid-secret', words: ['plaid'], values: [`access-(?:sandbox|development|production)-${UUID}`, '[a-z0-9]{24}', '[a-z0-9]{30}'] },
  { kind: 'privateai-token', words: ['privateai', 'private_ai', 'private-ai'], values: ['[a-z0-9]{32}'] },
  { kind: 'rapidapi-token', words: ['rapidapi'], values: ['[a-z0-9_-]{50}'] },
  { kind: 'sendbird-token', words: ['sendbird'], values: [UUID, '[a-f0-9]{40}'] },
  { kind: 'sentry-token', words: ['sentry'], values: ['[a-f0-9]{64}'] },
  { kind: 'sidekiq-secret', words: ['contribsys__com', 'contribsys.com', 'sidekiq'], values: ['[a-f0-9]{8}:[a-f0-9]{8}'], blankIsOperator: true },
  { kind: 'snyk-token', words: ['snyk'], values: [UUID] },
  { kind: 'sonar-token', words: ['sonar'], values: ['(?:squ_|sqp_|sqa_)?[a-z0-9=_-]{40}'] },
  { kind: 'sourcegraph-token', words: ['sourcegraph'], values: ['[a-f0-9]{40}'] },
  { kind: 'squarespace-token', words: ['squarespace'], values: [UUID] },
  { kind: 'sumologic-secret', words: ['sumo'], values: ['su[a-z0-9]{12}', '[a-z0-9]{64}'], caseSensitive: /^(?:SUMO|[Ss]umo)$/ },
  { kind: 'telegram-bot-token', words: ['telegr'], values: ['[0-9]{5,16}:A[a-z0-9_-]{34}'] },
  { kind: 'travisci-token', words: ['travis'], values: ['[a-z0-9]{22}'] },
  { kind: 'trello-token', words: ['trello'], values: ['[a-z0-9]{32}'] },
  { kind: 'twitch-token', words: ['twitch'], values: ['[a-z0-9]{30}'] },
  { kind: 'twitter-secret', words: ['twitter'], values: ['[a-z0-9]{45}', '[0-9]{15,25}-[a-z0-9]{20,40}', '[a-z0-9]{25}', '[a-z0-9]{50}', 'A{22}[a-z0-9%]{80,100}'] },
  { kind: 'yandex-key', words: ['yandex'], values: ['t1\\.[a-z0-9_-]{1,200}={0,2}\\.[a-z0-9_-]{86}={0,2}', 'AQVN[a-z0-9_-]{35,38}', 'YC[a-z0-9_-]{38}'] },
  { kind: 'zendesk-secret', words: ['zendesk'], values: ['[a-z0-9]{40}'] },
];

/** From the vendor's word on: the rest of the name, the operator, quotes, the value (group 1) and where it ends. */
const after = (values: readonly string[], blankIsOperator = false): RegExp =>
  new RegExp(`[ \\t\\w.-]{0,20}[\\s'"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,${blankIsOperator ? '|[ \\t]' : ''})[\`'"\\s=]{0,5}(${values.join('|')})(?=[\`'"\\s;]|\\\\[nr]|$)`, 'iy');

/** In prose: a few words after the vendor's, one of them saying what the value is, then the value quoted or in backticks (``our messagebird key was `…` ``). */
const inProse = (values: readonly string[]): RegExp =>
  new RegExp(`[ \\t\\w.,-]{0,24}?\\b(?:key|token|secret|id|password|credential|login)s?\\b[ \\t\\w.,-]{0,24}?[ \\t:=]+[\`'"](${values.join('|')})[\`'"]`, 'iy');

const BY_WORD = new Map<string, { row: VendorNamed; sticky: RegExp; prose: RegExp }>();
for (const row of ROWS) for (const word of row.words) BY_WORD.set(word, { row, sticky: after(row.values, row.blankIsOperator), prose: inProse(row.values) });

/** The kinds these rows report. */
export const VENDOR_NAMED_KINDS: readonly string[] = [...new Set(ROWS.map((row) => row.kind))];

/** The words the keyword pass looks for on this detector's behalf. */
export const VENDOR_NAME_WORDS: readonly string[] = [...BY_WORD.keys()];

/** Whether the character before a vendor's word lets it start a name part (`CLOUDFLARE_…`, `sumologic.…`, `"artifactory"`), not sit inside a longer word (`scloudflarex` does not count; `MessageBirdClientID` does). */
function startsNamePart(text: string, at: number): boolean {
  if (at === 0) return true;
  const c = text.charCodeAt(at - 1);
  const isLetter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  return !isLetter || (c >= 97 && c <= 122 && text.charCodeAt(at) >= 65 && text.charCodeAt(at) <= 90);
}

export const vendorNamedValuesDetector: ScanDetector = {
  kind: 'vendor-secret',
  keywords: VENDOR_NAME_WORDS,
  ignoreCase: true,
  scan(text: string, hits: KeywordHits): Replacement[] {
    const found: Replacement[] = [];
    let coveredUntil = 0;
    for (let h = 0; h < hits.starts.length; h++) {
      const start = hits.starts[h] as number;
      const end = hits.ends[h] as number;
      if (start < coveredUntil || !startsNamePart(text, start)) continue;
      const word = text.slice(start, end);
      const entry = BY_WORD.get(word.toLowerCase());
      if (!entry || (entry.row.caseSensitive && !entry.row.caseSensitive.test(word))) continue;
      entry.sticky.lastIndex = end;
      let m = entry.sticky.exec(text);
      let valueEnd = entry.sticky.lastIndex;
      if (!m) {
        entry.prose.lastIndex = end;
        m = entry.prose.exec(text);
        valueEnd = entry.prose.lastIndex - 1;
      }
      if (!m) continue;
      const value = m[1] as string;
      if (/x{6}/i.test(value) || isMostlyRuns(value) || /([A-Za-z0-9])\1{7}/.test(value)) continue;
      found.push({ start: valueEnd - value.length, end: valueEnd, text: redacted(entry.row.kind), kind: entry.row.kind });
      coveredUntil = valueEnd;
    }
    return found;
  },
};

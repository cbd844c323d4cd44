/**
 * Secrets in URLs (webhooks, `user:password@`, query parameters) and tokens made of an app's
 * numeric id and its secret (Telegram bots, Facebook apps), with the look-alikes and
 * placeholders left alone (issue 26). Every value is generated (never a real secret).
 */
import { describe, expect, it } from 'vitest';
import { ALNUM, pseudo } from '../support/pseudoText';
import { scrubSecrets } from '../../src/main/safety/secretScrubber';

const DIGITS = '0123456789';
const LOWER_ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
const TOKEN_CHARS = `${ALNUM}_-`;
const UPPER_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const PW = `${pseudo(9, ALNUM, 401)}3${pseudo(4, ALNUM, 403)}`;

const unchanged = (text: string): void => {
  expect(scrubSecrets(text).text).toBe(text);
};

describe('scrubSecrets: webhook URLs', () => {
  const slackPath = `T${pseudo(9, UPPER_DIGITS, 405)}/B${pseudo(9, UPPER_DIGITS, 407)}/${pseudo(24, ALNUM, 409)}`;
  const cases: [string, string, string][] = [
    ['Slack, without a scheme', `SLACK_HOOK: hooks.slack.com/services/${slackPath}`, 'SLACK_HOOK: [REDACTED:slack-webhook]'],
    ['Slack, lower-case path without a scheme', `notify hooks.slack.com/services/${pseudo(44, LOWER_ALNUM, 411)} done`, 'notify [REDACTED:slack-webhook] done'],
    ['Slack workflow, without a scheme', `url = "hooks.slack.com/workflows/${pseudo(44, LOWER_ALNUM, 413)}"`, 'url = "[REDACTED:slack-webhook]"'],
    ['Slack, with its scheme', `post https://hooks.slack.com/services/${slackPath}`, 'post [REDACTED:slack-webhook]'],
    ['Discord', `curl -X POST https://discord.com/api/webhooks/${pseudo(18, DIGITS, 415)}/${pseudo(68, TOKEN_CHARS, 417)} -d @msg.json`, 'curl -X POST [REDACTED:discord-webhook] -d @msg.json'],
    ['Discord on discordapp.com', `hook: "https://discordapp.com/api/webhooks/${pseudo(19, DIGITS, 419)}/${pseudo(68, TOKEN_CHARS, 421)}"`, 'hook: "[REDACTED:discord-webhook]"'],
    ['Discord canary, without a scheme', `canary.discord.com/api/webhooks/${pseudo(18, DIGITS, 423)}/${pseudo(68, TOKEN_CHARS, 425)}`, '[REDACTED:discord-webhook]'],
  ];
  for (const [name, input, expected] of cases) {
    it(name, () => {
      expect(scrubSecrets(input).text).toBe(expected);
    });
  }

  it('keeps Microsoft Teams webhooks redacted', () => {
    const guid = (seed: number): string => `${pseudo(8, 'abcdef0123456789', seed)}-${pseudo(4, 'abcdef0123456789', seed + 1)}-4${pseudo(3, 'abcdef0123456789', seed + 2)}-8${pseudo(3, 'abcdef0123456789', seed + 3)}-${pseudo(12, 'abcdef0123456789', seed + 4)}`;
    const url = `https://example.webhook.office.com/webhookb2/${guid(430)}@${guid(440)}/IncomingWebhook/${pseudo(32, 'abcdef0123456789', 450)}/${guid(460)}`;
    expect(scrubSecrets(`TEAMS=${url}`).text).not.toContain(pseudo(32, 'abcdef0123456789', 450));
  });

  it('leaves a Discord webhook URL with no token, and other hosts’ /api/webhooks/ paths, alone', () => {
    unchanged('See https://discord.com/api/webhooks/{webhook.id}/{webhook.token} in the docs');
    unchanged(`GET https://ci.example.test/api/webhooks/${pseudo(18, DIGITS, 427)}/deliveries`);
  });
});

describe('scrubSecrets: credentials in URLs', () => {
  it('redacts user:password@ and the secret query parameters', () => {
    expect(scrubSecrets(`git clone https://deploy:${PW}@git.example.test/org/repo.git`).text).toBe('git clone https://deploy:[REDACTED:url-password]@git.example.test/org/repo.git');
    for (const parameter of ['?access_token=', '?page=2&api_key=', '?apikey=', '?token=', '?part=snippet&key=']) {
      const value = `${pseudo(12, ALNUM, 431)}5${pseudo(15, ALNUM, 433)}`;
      const out = scrubSecrets(`GET https://api.example.test/v1/items${parameter}${value}`).text;
      expect(out).not.toContain(value);
      expect(out).toContain(`https://api.example.test/v1/items${parameter}[REDACTED:`);
    }
  });

  it('leaves placeholder users and passwords in URLs alone', () => {
    for (const text of [
      'https://user:password@git.example.test/org/repo.git',
      'https://<user>:<pass>@git.example.test/org/repo.git',
      'https://${USER}:${PASS}@git.example.test/org/repo.git',
      'postgres://postgres:postgres@localhost:5432/app',
      'amqp://guest:guest@localhost:5672/',
      'https://username:token@git.example.test/org/repo.git',
    ]) {
      unchanged(text);
    }
  });

  it('leaves page tokens and placeholder query values alone', () => {
    unchanged(`https://api.example.test/list?page_token=${pseudo(32, ALNUM, 435)}`);
    unchanged('https://api.example.test/list?key=value&x=1');
    unchanged('https://api.example.test/list?key=YOUR_API_KEY');
  });
});

describe('scrubSecrets: Telegram bot tokens', () => {
  const bot = `${pseudo(10, DIGITS, 437)}:AA${pseudo(33, TOKEN_CHARS, 439)}`;

  it('redacts a token in prose, in inline code, in an API URL and in an assignment', () => {
    expect(scrubSecrets(`telegram bot: ${bot}`).text).toBe('telegram bot: [REDACTED:telegram-bot-token]');
    expect(scrubSecrets(`Set \`${bot}\` as the bot token`).text).toBe('Set `[REDACTED:telegram-bot-token]` as the bot token');
    expect(scrubSecrets(`curl https://api.telegram.org/bot${bot}/sendMessage?chat_id=42`).text).toBe('curl https://api.telegram.org/bot[REDACTED:telegram-bot-token]/sendMessage?chat_id=42');
    expect(scrubSecrets(`${pseudo(5, DIGITS, 441)}:A${pseudo(34, TOKEN_CHARS, 443)}`).text).toBe('[REDACTED:telegram-bot-token]');
    expect(scrubSecrets(`${pseudo(16, DIGITS, 445)}:A${pseudo(34, TOKEN_CHARS, 447)}`).text).toBe('[REDACTED:telegram-bot-token]');
  });

  it('leaves look-alikes alone: a short or long id, a longer or shorter body, a word after it, a plain word', () => {
    for (const text of [
      `note ${pseudo(4, DIGITS, 449)}:A${pseudo(34, TOKEN_CHARS, 451)}`,
      `note ${pseudo(17, DIGITS, 453)}:A${pseudo(34, TOKEN_CHARS, 455)}`,
      `note ${pseudo(8, DIGITS, 457)}:A${pseudo(34, TOKEN_CHARS, 459)}-some-other-thing`,
      `note ${pseudo(8, DIGITS, 461)}:A${pseudo(30, TOKEN_CHARS, 463)}`,
      `note ${pseudo(8, DIGITS, 465)}:Ahello${pseudo(34, TOKEN_CHARS, 467)}`,
      '<xsd:element name="AgencyIdentificationCode" type="clm39136:AgencyIdentificationCodeContentType"/>',
      'seen 12345678:Aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
      `at app.js:${pseudo(6, DIGITS, 469)}:AbstractRequestHandlerForTheThingXY`,
    ]) {
      unchanged(text);
    }
  });
});

describe('scrubSecrets: Facebook app access tokens', () => {
  const appId = pseudo(16, DIGITS, 471).replace(/^0/, '1');
  const secret = `${pseudo(14, TOKEN_CHARS, 473)}7${pseudo(12, ALNUM, 475)}`;

  it('redacts <app id>|<secret> when Facebook is named on the line', () => {
    expect(scrubSecrets(`{"facebook access_token":"${appId}|${secret}","token_type":"bearer"}`).text).toBe('{"facebook access_token":"[REDACTED:facebook-access-token]","token_type":"bearer"}');
    expect(scrubSecrets(`facebook ${appId}|${secret}`).text).toBe('facebook [REDACTED:facebook-access-token]');
    expect(scrubSecrets(`curl "https://graph.example.test/debug?input=x&access=${appId}%7C${secret}" # fb app`).text).not.toContain(secret);
  });

  it('leaves the shape alone where Facebook is not named on its line, and short or word-like secrets', () => {
    unchanged(`id ${appId}|${secret}`);
    unchanged(`facebook app\nrow ${appId}|${secret}`);
    unchanged(`| facebook | ${appId}|abcdefghijklmnopqrstuvwxyzabc |`);
    unchanged(`facebook ${appId.slice(0, 14)}|${secret}`);
  });
});

/**
 * The value checks the assignment scan runs on every value it reads were made cheaper (one pass
 * over the value, regexes tried only where they can match, entropy counted in a typed array):
 * they must say exactly what the plain versions they replaced say, on any value.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { looksHighEntropy, looksLikeKeyMaterial, shannonEntropy } from '../../src/main/safety/secrets/entropy';
import { holdsSequence, isMostlyRuns, isRepeatedUnit, isTypedTokenBody } from '../../src/main/safety/secrets/fakeValues';
import { isPlaceholderValue } from '../../src/main/safety/secrets/secretNames';

/** shannonEntropy as it was: a Map of the value's characters (code points), summed in order of first appearance. */
function entropyByMap(value: string): number {
  const counts = new Map<string, number>();
  let length = 0;
  for (const ch of value) {
    counts.set(ch, (counts.get(ch) ?? 0) + 1);
    length++;
  }
  let entropy = 0;
  for (const n of counts.values()) entropy -= (n / length) * Math.log2(n / length);
  return entropy;
}

/** isPlaceholderValue written plainly: every shape a regex (or a plain function), tried in turn. */
const TYPE_NAMES = 'string|number|boolean|bool|str|int|integer|float|bytes|any|object|unknown|undefined|null|none|optional|secretstr|string\\[\\]';
const PLAIN_SHAPES: { test: (v: string) => boolean }[] = [
  /^-?\d[\d_]{0,4}$|^-?\d+\.\d+$/,
  /^(?:true|false|null|nil|none|undefined|yes|no|on|off|redacted|hidden|masked|protected|secret|password|token|changeme|required|optional|empty|unset|sensitive|n\/a|tbd|todo)$/i,
  new RegExp(`^(?:${TYPE_NAMES})(?:[ \\t]*[|&][ \\t]*(?:${TYPE_NAMES}))*[;,]?$`, 'i'),
  /^(?:str|string|int|bytes|bool|Optional\[|SecretStr|String|number)\b/,
  /^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?$/,
  /^\$[0-9@*#?!$-]\}?$/,
  /^(?:\$\(|\$\{|\{\{|#\{|<%)/,
  /^%[A-Za-z_][A-Za-z0-9_]*%$|^%(?:\([A-Za-z_][A-Za-z0-9_]*\))?[sdr]$/,
  /^(?:[\^~]|[<>]=?|=)?v?\d+(?:\.(?:\d+|x|\*)){1,3}(?:-[0-9A-Za-z.]+)?$/,
  /^<[^<>]*>/,
  /^\([^()]*\)$/,
  /^\[[^[\]]*\]$/,
  /^\{[^{}]*\}$/,
  /^[a-z][a-z0-9_.:-]*[-:@]v?\d+\.\d+(?:\.\d+)*(?:[-.][A-Za-z0-9]+)?(?::[a-z]+)?$/,
  /^[a-z]{2,8}[_-]$/,
  /^[xX]{3,}(?:[-_.][xX]{3,})+$/,
  /^[*x•.]+$/i,
  /^\*{4,}/,
  /^[|>][-+]?\d?$/,
  { test: (v: string) => /^(?:\/|~\/|\.\.?\/)/.test(v) && !(v.length >= 16 && /^\/[A-Za-z0-9+/]+={0,2}$/.test(v) && (/[+=]/.test(v) || !v.slice(1).includes('/')) && /[A-Z]/.test(v) && /[a-z]/.test(v) && /\d/.test(v)) },
  /^(?:your|my|some|the|insert|enter|put)[-_ ]|(?:^|[-_ <[(])(?:here|example|placeholder|changeme|replace[-_]?me|dummy|fake|redacted|masked|omitted|removed)(?:$|[-_ >\])])|^x{4,}$|^\.{3}$|^…$/i,
  /(?:\.\.|…)$/,
  /<[^<>\s]*(?:[ _-][^<>]*)?>|<(?:your|my|insert|enter|the)\b/i,
  /x{6,}|X{6,}|([A-Za-z0-9])\1{9,}/,
  /^(.)(?:[-_.]?\1){5,}$/,
  // Typed by hand (fakeValues.ts): a keyboard run of eight, a repeated unit, a mask inside, EXAMPLE keys, a label or code.
  { test: (v: string) => holdsSequence(v, 8) || (v.length >= 9 && isRepeatedUnit(v)) },
  /[#*•]{4}|EXAMPLE(?:KEY)?$/,
  { test: (v: string) => /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(v) && /[A-Z]{3}_[A-Z]{3}/.test(v) },
  /^[a-z_]+:$|\s=\s*$|^<[A-Za-z][\w:-]*\s/,
  // Stock words of default passwords (`rootpasswd`, `admin-123`), with a length bound.
  { test: (v: string) => v.length <= 28 && /^(?:(?:pass|passwd|password|pwd|secret|root|admin|administrator|user|username|test|testing|demo|default|example|sample|cleartext|plaintext|changeme|my|db|dev|local|guest|qwerty|letmein|welcome|hello|world|dummy|fake|super|token|key|api|mysql|postgres|redis|app|new|old|temp|tmp|word)[-_.]?)+\d{0,4}$/i.test(v) },
];
function placeholderByRegexes(value: string): boolean {
  const trimmed = value.trim();
  const last = trimmed.charCodeAt(trimmed.length - 1);
  const v = last === 59 || last === 44 ? trimmed.replace(/(?<=\w)[;,]$/, '') : trimmed;
  if (v.length < 3 || v.startsWith('[REDACTED:')) return true;
  // The first-character tests of the old code only skipped regexes that could not match there.
  return PLAIN_SHAPES.some((re) => re.test(v));
}

/** Pieces of values: placeholder words in any case, separators, masks, versions, references, runs, and random characters. */
const piece = fc.oneof(
  fc.constantFrom('your', 'My', 'the', 'HERE', 'example', 'root', 'Passwd', 'admin', 'user', 'test', 'Placeholder', 'changeme', 'replace-me', 'replace_me', 'Dummy', 'FAKE', 'null', 'None', 'sensitive'),
  fc.constantFrom('string', 'str | None', 'Optional[str]', 'number', 'SecretStr', 'int', 'bytes'),
  fc.constantFrom('-', '_', ' ', '<', '>', '.', '...', '…', ':', '@', '$', '{', '}', '{{', '(', ')', '[', ']', '%', '*', '•', '|', '/', '~/', '#{', '<%', ';', ',', '^', '~', '='),
  fc.constantFrom('x', 'X', 'xxxx', 'XXXXXX', 'aaaaaaaaaa', '0000', '1.2.3', 'v1.2', '9.0.2', '12', '3600', '-1', 'ab', 'pkg@1.2.3', 'ſ', 'é', '😀'),
  fc.string({ unit: fc.constantFrom(...'abcxyzHEREAB0123456789'.split('')), maxLength: 12 }),
);
const value = fc.array(piece, { maxLength: 8 }).map((pieces) => pieces.join(''));

describe('value checks', () => {
  it('count entropy exactly as a count of every character would, ASCII or not', () => {
    const text = fc.string({ unit: fc.oneof(fc.constantFrom(...'aAbB09_-+/='.split('')), fc.constantFrom('é', 'ß', '😀', '\u{1f600}', '\u00ff', '\u0100')), maxLength: 80 });
    fc.assert(
      fc.property(text, (v) => {
        expect(shannonEntropy(v)).toBe(entropyByMap(v));
      }),
      { numRuns: 3000 },
    );
  });

  it('never judge a token below the entropy floor random (the floor is now checked before the word and base64 tests)', () => {
    const token = fc.string({ unit: fc.constantFrom(...'abcdefABCDEFghijXYZ0123456789_-'.split('')), minLength: 18, maxLength: 70 });
    fc.assert(
      fc.property(token, (v) => {
        if (entropyByMap(v) < 0.82 * Math.log2(Math.min(v.length, 64))) expect(looksHighEntropy(v)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('judge a token body typed by hand in one pass exactly as the plain checks do', () => {
    const token = fc.string({ unit: fc.constantFrom(...'xXaA0123EXAMPLEexample-_.Qq'.split('')), maxLength: 60 });
    fc.assert(
      fc.property(token, fc.nat(6), (t, from) => {
        const body = t.slice(from).replace(/[^A-Za-z0-9]/g, '');
        const plain = body.length === 0 || /x{6}|X{6}|EXAMPLE$/i.test(body) || isMostlyRuns(body) || isRepeatedUnit(body);
        expect([t, from, isTypedTokenBody(t, from)]).toEqual([t, from, plain]);
      }),
      { numRuns: 20000 },
    );
  });

  it('find a placeholder exactly where the plain regexes do', () => {
    fc.assert(
      fc.property(value, (v) => {
        expect([v, isPlaceholderValue(v)]).toEqual([v, placeholderByRegexes(v)]);
      }),
      { numRuns: 20000 },
    );
  });

  it('find the placeholders the regexes find in values people write', () => {
    const samples = ['<your token>', 'your-api-key', 'xxxx-xxxx', 'ghp_xxxxxxxxxxxxxxxx', 'sk-...', 'sntrys_', '^9.0.2', 'jsonwebtoken@9.0.2', '${{ secrets.NPM_TOKEN }}', 'aaaaaaaaaa', '0000-0000-0000', 'put_here', 'example', 'REPLACE_ME', 'some value', 'hunter2hunter2', 'c0rrect-h0rse', 'Zx9#kq!2Lm'];
    for (const v of samples) expect([v, isPlaceholderValue(v)]).toEqual([v, placeholderByRegexes(v)]);
    expect(samples.filter((v) => isPlaceholderValue(v))).toHaveLength(15);
  });
});

describe('key material', () => {
  /** looksLikeKeyMaterial written plainly, as it was before its one-pass rewrite. */
  function keyMaterialPlainly(value: string): boolean {
    const v = value.startsWith('base64:') ? value.slice(7) : value;
    if (v.length < 16 || v.length > 4096 || /[\s:]/.test(v)) return false;
    if (!/\d/.test(v)) return false;
    if (/^[A-Za-z][\w-]*(?:\.[A-Za-z][\w-]*)+$/.test(v)) return false;
    if (/^[A-Za-z]+(?:[-_][A-Za-z]+)*[-_.]?v?\d+(?:\.\d+)+$/.test(v)) return false;
    const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((re) => re.test(v)).length;
    if (classes < 2) return false;
    return shannonEntropy(v) >= 3;
  }

  it('is judged in one pass exactly as the plain checks judge it', () => {
    const value = fc.oneof(
      fc.string({ unit: fc.constantFrom(...'aZ09._-: \t\u00a0\u2003é+/='.split('')), maxLength: 40 }),
      fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-'.split('')), minLength: 14, maxLength: 40 }),
      fc.constantFrom('SalesResults-1.2', 'jetbrains.mps.v8_elimination', 'base64:abcDEF0123456789xyz', 'report_v2.10.1'),
    );
    fc.assert(
      fc.property(value, (v) => {
        expect([v, looksLikeKeyMaterial(v)]).toEqual([v, keyMaterialPlainly(v)]);
      }),
      { numRuns: 20000 },
    );
  });
});

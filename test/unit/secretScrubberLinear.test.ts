/**
 * The scrubber stays linear on the inputs that once made it crawl: `key=` a million times took
 * 50–80 s, each operator's value read to 4,096 characters and judged again. Checked by the
 * work done, not by time: the characters the assignment scan's value reads examine
 * (`valueReadWork`), at most a small multiple of the input's length, and doubling the input
 * at most about doubles it.
 */
import { describe, expect, it } from 'vitest';
import { scrubSecrets } from '../../src/main/safety/secretScrubber';
import { MAX_READS_INSIDE, valueReadWork } from '../../src/main/safety/secrets/valueReads';

const MB = 1 << 20;
/** Each character read by the first value over it and at most MAX_READS_INSIDE more, plus a read's terminator. */
const WORK_PER_CHARACTER = MAX_READS_INSIDE + 2;

function workFor(text: string): number {
  const before = valueReadWork.characters;
  scrubSecrets(text);
  return valueReadWork.characters - before;
}

const repeated = (unit: string, size: number): string => unit.repeat(Math.ceil(size / unit.length));

describe('scrubSecrets on pathological input', () => {
  it.each(['key=', 'KEY=', 'key:', 'value=', 'auth=', 'token: ', 'password=', '-----BEGIN ', 'sk-', ':', 'key="', '"key":"'])('reads the values of %j × 4 MB in linear work', (unit) => {
    const half = workFor(repeated(unit, 2 * MB));
    const whole = workFor(repeated(unit, 4 * MB));
    expect(whole).toBeLessThanOrEqual(WORK_PER_CHARACTER * 4 * MB);
    expect(whole).toBeLessThanOrEqual(2.1 * half + 8192);
  });

  it('the same shapes on lines of their own', () => {
    for (const unit of ['key=\n', 'KEY=k\n', 'token: |\n', 'key: key=\n']) {
      expect(workFor(repeated(unit, 4 * MB))).toBeLessThanOrEqual(WORK_PER_CHARACTER * 4 * MB);
    }
  });

  it('still redacts the lines after a flood, and a secret after a blank in it', () => {
    const flood = repeated('key=', MB);
    const { text } = scrubSecrets(`${flood}\nDB_PASSWORD=hunter2-Xy9\n${flood} password=hunter3-Zq7 ${flood}`);
    expect(text).toContain('DB_PASSWORD=[REDACTED:password]');
    expect(text).toContain(' password=[REDACTED:password] ');
    expect(text).not.toMatch(/hunter[23]/);
  });
});

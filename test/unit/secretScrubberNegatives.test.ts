/**
 * The secret scrubber on near misses (test/fixtures/secrets/nearMisses.ts): placeholders,
 * shell expansions, references to secrets, identifiers, public ids, hashes, settings, versions
 * and base64 of ordinary text, none of them a secret. Prints the share altered per family and
 * one example of each alteration; at most 5% of all cases may be altered (issue 26).
 */
import { describe, expect, it } from 'vitest';
import { findSecrets, scrubSecrets } from '../../src/main/safety/secretScrubber';
import { nearMisses } from '../fixtures/secrets/nearMisses';

const ALTERED_LIMIT = 0.05;

const percent = (x: number) => `${(x * 100).toFixed(1)}%`;
const oneLine = (text: string) => text.replace(/\n/g, '⏎').slice(0, 150);

describe('secret scrubber, near-miss negatives', () => {
  const cases = nearMisses();

  it('the fixture has every family, each with cases', () => {
    const families = new Set(cases.map((c) => c.family));
    expect([...families].sort()).toEqual(['base64-text', 'config-values', 'identifiers', 'placeholder-pairs', 'placeholders', 'public-ids', 'secret-references', 'shell-expansions', 'uuids-and-hashes', 'versions']);
    for (const family of families) expect(cases.filter((c) => c.family === family).length).toBeGreaterThanOrEqual(10);
  });

  it(`alters at most ${ALTERED_LIMIT * 100}% of the near misses`, () => {
    const byFamily = new Map<string, { cases: number; altered: string[] }>();
    for (const c of cases) {
      const row = byFamily.get(c.family) ?? { cases: 0, altered: [] };
      row.cases++;
      const scrubbed = scrubSecrets(c.text).text;
      if (scrubbed !== c.text) row.altered.push(`${findSecrets(c.text).map((s) => s.kind).join(',')}: ${oneLine(c.text)}  →  ${oneLine(scrubbed)}`);
      byFamily.set(c.family, row);
    }
    const altered = [...byFamily.values()].reduce((sum, r) => sum + r.altered.length, 0);
    const lines = [...byFamily.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([family, r]) => `${family.padEnd(18)} ${String(r.cases).padStart(5)} ${String(r.altered.length).padStart(8)} ${percent(r.altered.length / r.cases).padStart(7)}`);
    console.log(`\nnear misses\n${'family'.padEnd(18)} ${'cases'.padStart(5)} ${'altered'.padStart(8)} ${'share'.padStart(7)}\n${lines.join('\n')}\n${'all'.padEnd(18)} ${String(cases.length).padStart(5)} ${String(altered).padStart(8)} ${percent(altered / cases.length).padStart(7)}`);
    for (const [family, r] of byFamily) for (const example of r.altered) console.log(`  altered ${family} (${example})`);
    expect(altered / cases.length).toBeLessThanOrEqual(ALTERED_LIMIT);
  });
});

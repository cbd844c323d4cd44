/**
 * The secret scrubber redacts exactly what it did when `test/fixtures/secrets/scrubberOutput.json`
 * was recorded (before its single-pass rewrite, issue 25): the same spans with the same kinds
 * and the same resulting text, on every document of the differential corpus (ordinary output,
 * filled templates, and fast-check-generated text with secrets of every kind planted at random
 * places). A deliberate change of behaviour re-records the file:
 * `RECORD_SCRUBBER_OUTPUT=1 npx vitest run test/unit/secretScrubberDifferential.test.ts`.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findSecrets, scrubSecrets } from '../../src/main/safety/secretScrubber';
import { differentialDocuments } from '../fixtures/secrets/differentialCorpus';

interface Recorded {
  name: string;
  /** [start, end, kind] of every redacted span. */
  spans: [number, number, string][];
  /** SHA-256 of the scrubbed text. */
  scrubbed: string;
}

const FIXTURE = new URL('../fixtures/secrets/scrubberOutput.json', import.meta.url);

function observe(name: string, text: string): Recorded {
  return {
    name,
    spans: findSecrets(text).map((s) => [s.start, s.end, s.kind]),
    scrubbed: createHash('sha256').update(scrubSecrets(text).text).digest('hex'),
  };
}

describe('secret scrubber, differential', () => {
  const docs = differentialDocuments();

  it('the corpus is large and holds secrets', () => {
    expect(docs.length).toBeGreaterThan(800);
    const generated = docs.filter((d) => d.name.startsWith('generated/'));
    expect(generated.filter((d) => findSecrets(d.text).length > 0).length).toBeGreaterThan(generated.length / 2);
  });

  if (process.env.RECORD_SCRUBBER_OUTPUT) {
    it('records the output', () => {
      const recorded = docs.map((d) => observe(d.name, d.text));
      writeFileSync(FIXTURE, `[\n${recorded.map((r) => JSON.stringify(r)).join(',\n')}\n]\n`);
    });
    return;
  }

  it('redacts exactly what was recorded, document by document', () => {
    const recorded = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Recorded[];
    expect(recorded.map((r) => r.name)).toEqual(docs.map((d) => d.name));
    const differing: string[] = [];
    docs.forEach((doc, i) => {
      const now = observe(doc.name, doc.text);
      const then = recorded[i] as Recorded;
      if (JSON.stringify(now) !== JSON.stringify(then)) {
        differing.push(`${doc.name}: was ${JSON.stringify(then.spans)}, now ${JSON.stringify(now.spans)}${now.scrubbed === then.scrubbed ? '' : ' (scrubbed text differs)'}`);
      }
    });
    expect(differing.slice(0, 10)).toEqual([]);
  });
});

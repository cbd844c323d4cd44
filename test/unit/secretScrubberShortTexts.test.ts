/**
 * A short text that comes before the scrubber's automaton is built is searched keyword by keyword
 * (keywordScan.ts, SEARCHED_TEXT_LIMIT): with the whole detector table, it must redact exactly
 * what the automaton's walk redacts, on every short document of the differential corpus.
 */
import { describe, expect, it } from 'vitest';
import { SECRET_DETECTORS, findSecrets, scrubSecrets } from '../../src/main/safety/secretScrubber';
import { SEARCHED_TEXT_LIMIT } from '../../src/main/safety/secrets/keywordScan';
import { differentialDocuments } from '../fixtures/secrets/differentialCorpus';

describe('secret scrubber on short texts', () => {
  // Each copy of the table gets a scanner of its own: this one never sees a long text, so it searches.
  const searched = [...SECRET_DETECTORS];
  // This one has built its automaton (for a long text) and walks every text since.
  const walked = [...SECRET_DETECTORS];
  findSecrets('x'.repeat(SEARCHED_TEXT_LIMIT), walked);

  it('finds the same secrets by a search per keyword as by the automaton', () => {
    const short = differentialDocuments().filter((doc) => doc.text.length < SEARCHED_TEXT_LIMIT);
    expect(short.length).toBeGreaterThan(200);
    expect(short.filter((doc) => findSecrets(doc.text, walked).length > 0).length).toBeGreaterThan(100);
    for (const doc of short) {
      expect({ doc: doc.name, spans: findSecrets(doc.text, searched) }).toEqual({ doc: doc.name, spans: findSecrets(doc.text, walked) });
      expect(scrubSecrets(doc.text, searched).text).toBe(scrubSecrets(doc.text, walked).text);
    }
  });
});

/**
 * Until the texts it has scanned reach SEARCH_BUDGET characters, the scrubber searches each keyword
 * in turn instead of building its automaton (keywordScan.ts): with the whole detector table, it must
 * redact exactly what the automaton's walk redacts, on every document of the differential corpus
 * short enough to be searched.
 */
import { describe, expect, it } from 'vitest';
import { SECRET_DETECTORS, findSecrets, scrubSecrets } from '../../src/main/safety/secretScrubber';
import { SEARCH_BUDGET } from '../../src/main/safety/secrets/keywordScan';
import { differentialDocuments } from '../fixtures/secrets/differentialCorpus';

describe('secret scrubber before its automaton is built', () => {
  // A copy of the table has a scanner of its own: this one has built its automaton (for a long text) and walks every text since.
  const walked = [...SECRET_DETECTORS];
  findSecrets('x'.repeat(SEARCH_BUDGET), walked);

  it('finds the same secrets by a search per keyword as by the automaton', () => {
    const searchable = differentialDocuments().filter((doc) => doc.text.length < SEARCH_BUDGET / 2);
    expect(searchable.length).toBeGreaterThan(200);
    expect(searchable.filter((doc) => findSecrets(doc.text, walked).length > 0).length).toBeGreaterThan(100);
    for (const doc of searchable) {
      // A fresh copy for each document and each call: its scanner has searched less than its budget, so it searches.
      expect({ doc: doc.name, spans: findSecrets(doc.text, [...SECRET_DETECTORS]) }).toEqual({ doc: doc.name, spans: findSecrets(doc.text, walked) });
      expect(scrubSecrets(doc.text, [...SECRET_DETECTORS]).text).toBe(scrubSecrets(doc.text, walked).text);
    }
  });
});

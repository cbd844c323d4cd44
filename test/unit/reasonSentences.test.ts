import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reasonClauses, reasonSentences } from '../../src/main/safety/reasonSentences';

describe('reasons shown as prose', () => {
  it('ends each reason as a sentence', () => {
    expect(reasonSentences(['rm -r -f on your home folder deletes it', 'sudo runs rm as root'])).toBe('rm -r -f on your home folder deletes it. sudo runs rm as root.');
    expect(reasonSentences(['It changes ~/.bashrc.', 'is it "quoted?"', ' '])).toBe('It changes ~/.bashrc. is it "quoted?"');
    expect(reasonSentences([])).toBe('');
  });

  it('keeps clauses for a parenthesis', () => {
    expect(reasonClauses(['deletes your home', 'runs as root.'])).toBe('deletes your home; runs as root');
  });

  it('never runs two reasons together: every reason is followed by a sentence end', () => {
    const clause = fc.stringMatching(/^[a-z][a-z ~/-]{0,30}[a-z]$/);
    fc.assert(
      fc.property(fc.array(clause, { minLength: 1, maxLength: 5 }), (reasons) => {
        const text = reasonSentences(reasons);
        let from = 0;
        for (const reason of reasons) {
          const at = text.indexOf(reason, from);
          expect(at).toBeGreaterThanOrEqual(from);
          from = at + reason.length;
          expect(text[from]).toBe('.');
        }
        expect(text.endsWith('.')).toBe(true);
      }),
    );
  });
});

/**
 * The assignment scan looks only at the operators its keywords and token runs lead to: it must
 * redact exactly what it redacts when it looks at every `:` and `=` of the text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ASSIGNMENT_KEYWORDS, ASSIGNMENT_OPERATORS, scanAssignments } from '../../src/main/safety/secrets/assignments';
import { KeywordScanner } from '../../src/main/safety/secrets/keywordScan';
import { ALNUM, pseudo } from '../support/pseudoText';

/** The automaton's walk, and the search keyword by keyword that texts get until it is built. */
const locatedBoth = [0, Infinity].map((searchBudget) =>
  new KeywordScanner(
    ASSIGNMENT_KEYWORDS.map((text) => ({ text, ignoreCase: true })),
    ASSIGNMENT_KEYWORDS.map(() => [0]),
    [ASSIGNMENT_OPERATORS],
    { searchBudget },
  ),
);

function everyOperator(text: string): { starts: Int32Array; ends: Int32Array } {
  const at: number[] = [];
  for (let i = 0; i < text.length; i++) if (text[i] === ':' || text[i] === '=') at.push(i);
  return { starts: Int32Array.from(at), ends: Int32Array.from(at, (i) => i + 1) };
}

const TOKEN = pseudo(24, ALNUM, 3);
const names = ['auth', 'AUTH', '_auth', 'Author', 'Authorization', 'oauth2', 'oauth', 'authToken', 'AUTH_TOKEN', 'authkey', 'masterauth', 'Co-authored-by', 'author_password', 'AUTHOR', 'auth0', 'x.auth', 'masterauthToken', 'masterAuth', 'MASTERAUTH', 'token', 'db_pass', 'value', 'apiKey', 'upstream', 'context', 'string', 'String', 'str', 'x_str', '$str', 'megabytes', 'bytes', 'SecretStr', 'CharSequence', 'text', 'plaintext', 'var apiToken string', 'password: str', 'val apiKey: String', 'token []byte', 'key.text'];
const unit = fc.oneof(
  fc.constantFrom(...names),
  fc.constantFrom(': ', '=', ' = ', ':=', '"', "'", ' ', '\n', ',', '{', '}', '==', '?='),
  fc.constantFrom(TOKEN, 'hunter2hunter2', 'dXNlcjpwYXNzd29yZA==', 'null', 'x', 'John <j@x.org>', 'Bearer abc'),
);

describe('assignment scan at located operators', () => {
  it('redacts what a look at every operator redacts', () => {
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 24 }), (units) => {
        const text = units.join('');
        for (const located of locatedBoth) {
          const places = located.scan(text, 1)[0];
          if (!places) throw new Error('no places');
          expect(scanAssignments(text, places)).toEqual(scanAssignments(text, everyOperator(text)));
        }
      }),
      { numRuns: 6000 },
    );
  });
});

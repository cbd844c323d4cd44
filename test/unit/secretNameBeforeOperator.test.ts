/**
 * The assignment scan's check that a name stands before an operator, written without a regex:
 * it must say what the regex it replaced says, at every `:` and `=` of any text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nameThenOperator } from '../../src/main/safety/secrets/nameBeforeOperator';

/** The regex the check replaced, tried at one operator. */
const NAME_THEN_OPERATOR = /[:=](?<=(?<![A-Za-z0-9_.])[A-Za-z_][A-Za-z0-9_.-]{0,80}["']?[ \t]*(?:[?+.]|\|\|)?[:=])/y;
function byRegex(text: string, at: number): boolean {
  NAME_THEN_OPERATOR.lastIndex = at;
  return NAME_THEN_OPERATOR.test(text);
}

const everyPosition = (text: string): number[] => Array.from({ length: text.length }, (_, i) => i);

describe('nameThenOperator', () => {
  it('says what the regex says, at every position of any text of names, quotes, blanks and operators', () => {
    // Every character class the regex tells apart, and names long enough to pass its 81-character bound.
    const unit = fc.oneof(
      fc.constantFrom(...'aZ_9.-$"\' \t:=?+|>\n\u00e9'.split('')),
      fc.constant('x'.repeat(79)),
      fc.constant('x'.repeat(80)),
      fc.constant('||='),
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 40 }), (units) => {
        const text = units.join('');
        for (const at of everyPosition(text)) expect([at, nameThenOperator(text, at)]).toEqual([at, byRegex(text, at)]);
      }),
      { numRuns: 2000 },
    );
  });

  it('takes names before plain and compound operators, and refuses what is not a name', () => {
    const cases: [string, boolean][] = [
      ['API_TOKEN=x', true],
      ['"api_token": "x"', true],
      ['api_token ?= x', true],
      ['$x .= "y"', true],
      ['@secret ||= "y"', true],
      ['a-b: c', true],
      ['9abc=1', false],
      ['x.=', true],
      ['ab$c=1', true],
      ['.x=1', false],
      [`${'n'.repeat(81)}=1`, true],
      [`${'n'.repeat(82)}=1`, false],
      ['= x', false],
      ['é=1', false],
    ];
    for (const [text, expected] of cases) {
      const at = Math.max(text.indexOf('='), text.indexOf(':'));
      expect([text, nameThenOperator(text, at)]).toEqual([text, expected]);
      expect([text, byRegex(text, at)]).toEqual([text, expected]);
    }
  });
});

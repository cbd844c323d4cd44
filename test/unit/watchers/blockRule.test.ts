import { describe, expect, it } from 'vitest';
import { blockMatches, describeBlockRule, exitMatches, outputMatch } from '../../../src/main/watchers/triggers/blockRule';

describe('block watcher rule', () => {
  it('reads exit specs', () => {
    expect(exitMatches('!=0', 1)).toBe(true);
    expect(exitMatches('!=0', 0)).toBe(false);
    expect(exitMatches('0', 0)).toBe(true);
    expect(exitMatches('130', 130)).toBe(true);
    expect(exitMatches('130', 1)).toBe(false);
    expect(exitMatches('any', undefined)).toBe(true);
    expect(exitMatches('!=0', undefined)).toBe(false);
  });

  it('matches the command with the policy pattern language: * stops at control characters', () => {
    const rule = { command: 'node --test*', exit: '!=0' };
    expect(blockMatches(rule, { command: 'node --test failing.test.mjs', exitCode: 1 })).toBe(true);
    expect(blockMatches(rule, { command: 'node  --test   a.mjs', exitCode: 1 })).toBe(true);
    expect(blockMatches(rule, { command: 'node --test a.mjs && rm -rf x', exitCode: 1 })).toBe(false);
    expect(blockMatches(rule, { command: 'node --test a.mjs; echo', exitCode: 1 })).toBe(false);
    expect(blockMatches(rule, { command: 'npm test', exitCode: 1 })).toBe(false);
    expect(blockMatches(rule, { command: 'node --test a.mjs', exitCode: 0 })).toBe(false);
    expect(blockMatches({ exit: 'any' }, { command: 'anything', exitCode: 0 })).toBe(true);
  });

  it('finds the line the output regex matches', () => {
    expect(outputMatch('FAIL|not ok', 'ok 1 - a\nnot ok 2 - b\n# tests 2')).toBe('not ok 2 - b');
    expect(outputMatch('^Error', 'all good\n')).toBeUndefined();
  });

  it('says the rule in words', () => {
    expect(describeBlockRule({ command: 'npm test*', exit: '!=0', output: 'FAIL' })).toBe('`npm test*` exits with anything but 0, output matching /FAIL/');
    expect(describeBlockRule({ exit: 'any', pane: 'focused' })).toBe('any command ends in the pane typed in last');
  });
});

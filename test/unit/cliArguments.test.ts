import { describe, expect, it } from 'vitest';
import { parseArguments } from '../../src/main/cli/arguments';

describe('parseArguments', () => {
  it('parses tandem web with its options in both spellings', () => {
    expect(parseArguments(['web', '--port', '0', '--shell', '/usr/bin/zsh', '--no-open'])).toEqual({
      kind: 'web',
      port: 0,
      shell: '/usr/bin/zsh',
      open: false,
    });
    expect(parseArguments(['web', '--port=8123'])).toEqual({ kind: 'web', port: 8123, shell: undefined, open: true });
  });

  it('starts the app without arguments and answers help and version', () => {
    expect(parseArguments([])).toEqual({ kind: 'app' });
    expect(parseArguments(['--help']).kind).toBe('help');
    expect(parseArguments(['--version']).kind).toBe('version');
  });

  it('explains bad input instead of throwing', () => {
    expect(parseArguments(['web', '--port', 'abc'])).toMatchObject({ kind: 'error', message: expect.stringContaining('--port') });
    expect(parseArguments(['web', '--port', '70000']).kind).toBe('error');
    expect(parseArguments(['web', '--shell']).kind).toBe('error');
    expect(parseArguments(['web', '--bogus']).kind).toBe('error');
    expect(parseArguments(['frobnicate']).kind).toBe('error');
  });
});

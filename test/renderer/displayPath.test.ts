import { describe, expect, it } from 'vitest';
import { displayPath } from '../../src/renderer/src/statusbar/displayPath';

describe('displayPath', () => {
  it('writes the home directory and paths under it with ~', () => {
    expect(displayPath('/home/ann', '/home/ann')).toBe('~');
    expect(displayPath('/home/ann/src/tandem', '/home/ann')).toBe('~/src/tandem');
    expect(displayPath('/home/ann/src', '/home/ann/')).toBe('~/src');
  });

  it('leaves other paths alone, also ones that merely start with the same letters', () => {
    expect(displayPath('/home/anna/src', '/home/ann')).toBe('/home/anna/src');
    expect(displayPath('/tmp', '/home/ann')).toBe('/tmp');
    expect(displayPath('/usr', '')).toBe('/usr');
    expect(displayPath('/usr', '/')).toBe('/usr');
    expect(displayPath('', '/home/ann')).toBe('');
  });
});

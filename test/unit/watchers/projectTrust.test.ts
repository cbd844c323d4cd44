import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProjectTrust } from '../../../src/main/watchers/projectTrust';

describe('ProjectTrust', () => {
  let dir: string;
  let trust: ProjectTrust;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tandem-trust-'));
    trust = new ProjectTrust(join(dir, 'data', 'trusted-watchers.json'));
    mkdirSync(join(dir, 'proj', '.tandem'), { recursive: true });
    file = join(dir, 'proj', '.tandem', 'watchers.toml');
    writeFileSync(file, 'x = 1\n');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('trusts nothing until allowed, then exactly the allowed content', () => {
    expect(trust.isTrusted(file, 'x = 1\n')).toBe(false);
    trust.allow(file, 'x = 1\n', 'cli');
    expect(trust.isTrusted(file, 'x = 1\n')).toBe(true);
    expect(trust.isTrusted(file, 'x = 2\n')).toBe(false);
    writeFileSync(file, 'x = 2\n');
    expect(trust.isTrusted(file, readFileSync(file, 'utf8'))).toBe(false);
  });

  it('keys the record by real path: a symlinked project is the same file', () => {
    symlinkSync(join(dir, 'proj'), join(dir, 'link'));
    trust.allow(join(dir, 'link', '.tandem', 'watchers.toml'), 'x = 1\n', 'cli');
    expect(trust.isTrusted(file, 'x = 1\n')).toBe(true);
  });

  it('writes its record 0600 and forgets on deny', () => {
    trust.allow(file, 'x = 1\n', 'panel');
    expect(statSync(join(dir, 'data', 'trusted-watchers.json')).mode & 0o777).toBe(0o600);
    expect(trust.deny(file)).toBe(true);
    expect(trust.isTrusted(file, 'x = 1\n')).toBe(false);
    expect(trust.deny(file)).toBe(false);
  });

  it('a damaged record trusts nothing and is replaced on the next allow', () => {
    mkdirSync(join(dir, 'data'), { recursive: true });
    writeFileSync(join(dir, 'data', 'trusted-watchers.json'), '{oops');
    expect(trust.isTrusted(file, 'x = 1\n')).toBe(false);
    trust.allow(file, 'x = 1\n', 'cli');
    expect(trust.isTrusted(file, 'x = 1\n')).toBe(true);
  });
});

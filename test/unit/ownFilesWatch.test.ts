import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OwnFilesWatch } from '../../src/main/safety/approval/ownFilesWatch';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('OwnFilesWatch', () => {
  it('names what was created, changed or removed under its places (two levels deep); a missing place is no error', () => {
    dir = mkdtempSync(join(tmpdir(), 'own-files-'));
    const config = join(dir, 'tandem');
    mkdirSync(join(config, 'hooks'), { recursive: true });
    writeFileSync(join(config, 'config.toml'), 'a = 1\n');
    writeFileSync(join(config, 'hooks', 'pre.sh'), 'exit 0\n');
    writeFileSync(join(config, 'old.toml'), 'x\n');
    const watch = new OwnFilesWatch([config, join(dir, 'no-such-dir', 'policy.toml')]);
    const before = watch.snapshot();
    expect([...before.keys()].sort()).toEqual([join(config, 'config.toml'), join(config, 'hooks', 'pre.sh'), join(config, 'old.toml')]);
    expect(watch.changedSince(before)).toEqual([]);

    writeFileSync(join(config, 'config.toml'), 'a = 22\n');
    writeFileSync(join(config, 'policy.toml'), '[shell]\n');
    rmSync(join(config, 'old.toml'));
    expect(watch.changedSince(before)).toEqual([join(config, 'config.toml'), join(config, 'old.toml'), join(config, 'policy.toml')]);
  });
});

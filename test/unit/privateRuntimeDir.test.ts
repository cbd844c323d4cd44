import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { privateRuntimeDir } from '../../src/main/shell/privateRuntimeDir';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'runtime-test-'));
  made.push(dir);
  return dir;
}

function madeIn(env: NodeJS.ProcessEnv, fill?: (dir: string) => void): string {
  const dir = privateRuntimeDir({ env, fill });
  made.push(dir);
  return dir;
}

describe('privateRuntimeDir', () => {
  it("makes a fresh 0700 directory in the user's runtime directory", () => {
    const runtime = scratch();
    chmodSync(runtime, 0o700);
    const first = madeIn({ XDG_RUNTIME_DIR: runtime });
    const second = madeIn({ XDG_RUNTIME_DIR: runtime });
    expect(dirname(first)).toBe(runtime);
    expect(second).not.toBe(first);
    expect(statSync(first).mode & 0o777).toBe(0o700);
  });

  it('passes over a runtime directory others can enter, one that is missing, and a relative one', () => {
    const shared = scratch();
    chmodSync(shared, 0o755);
    const missing = join(scratch(), 'gone');
    const relative = 'run/user';
    for (const XDG_RUNTIME_DIR of [shared, missing, relative]) {
      const dir = madeIn({ XDG_RUNTIME_DIR });
      expect(dirname(dir)).not.toBe(XDG_RUNTIME_DIR);
      expect(statSync(dir).mode & 0o777).toBe(0o700);
    }
  });

  it.runIf(process.platform === 'linux')('without a runtime directory, uses the in-memory /dev/shm on Linux', () => {
    expect(dirname(madeIn({}))).toBe('/dev/shm');
  });

  it("passes over a place where the caller's files cannot be written (a full /dev/shm) and leaves nothing there", () => {
    const runtime = scratch();
    chmodSync(runtime, 0o700);
    const tried: string[] = [];
    const dir = madeIn({ XDG_RUNTIME_DIR: runtime }, (place) => {
      tried.push(place);
      if (place.startsWith(runtime)) throw new Error('ENOSPC: no space left on device');
      writeFileSync(join(place, 'bootstrap'), 'nonce\n');
    });
    expect(dirname(tried[0]!)).toBe(runtime);
    expect(readdirSync(runtime)).toEqual([]);
    expect(dirname(dir)).not.toBe(runtime);
    expect(readFileSync(join(dir, 'bootstrap'), 'utf8')).toBe('nonce\n');
  });

  it('says where it tried and why when no place takes the files', () => {
    const runtime = scratch();
    chmodSync(runtime, 0o700);
    expect(() =>
      privateRuntimeDir({
        env: { XDG_RUNTIME_DIR: runtime },
        fill: () => {
          throw new Error('ENOSPC: no space left on device');
        },
      }),
    ).toThrow(new RegExp(`no place for the shell's integration files \\(${runtime}: ENOSPC.*${tmpdir()}: ENOSPC`));
    expect(readdirSync(runtime)).toEqual([]);
  });
});

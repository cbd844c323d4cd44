import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FiringGate, type TriggerEvent } from '../../../src/main/watchers/firing/firingGate';
import { RunSlots } from '../../../src/main/watchers/firing/runSlots';
import { combineFileEvents, startFileTrigger, type FileTrigger } from '../../../src/main/watchers/triggers/fileTrigger';
import { waitUntil } from '../../support/waitUntil';

describe('file_change trigger on real files (@parcel/watcher)', () => {
  let dir: string;
  let trigger: FileTrigger | undefined;
  let gate: FiringGate | undefined;
  const firings: TriggerEvent[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tandem-watch-'));
    firings.length = 0;
  });
  afterEach(async () => {
    gate?.dispose();
    await trigger?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  async function watch(globs: string[], debounceMs = 300): Promise<void> {
    const firing = new FiringGate({
      debounceMs,
      maxRunsPerHour: 60,
      slots: new RunSlots(2),
      combine: combineFileEvents,
      fire: async (event) => void firings.push(event),
    });
    gate = firing;
    trigger = await startFileTrigger({ globs, root: dir, home: dir }, (event) => firing.offer(event));
  }

  it('a burst of saves is one firing naming the changed files', async () => {
    mkdirSync(join(dir, 'src'));
    await watch(['src/**/*.ts']);
    for (let i = 0; i < 30; i++) {
      writeFileSync(join(dir, 'src', i % 2 ? 'a.ts' : 'b.ts'), `export const n = ${i};\n`);
      await new Promise((resolve) => setImmediate(resolve));
    }
    await waitUntil(() => firings.length >= 1, 'the firing of the burst');
    expect(firings[0]!.reason).toMatch(/^2 files changed: src\/[ab]\.ts, src\/[ab]\.ts$/);
    expect(firings[0]!.details.split('\n').sort()).toEqual(['src/a.ts', 'src/b.ts']);
    // A later save is a firing of its own, and the burst made no second one.
    writeFileSync(join(dir, 'src', 'c.ts'), 'x\n');
    await waitUntil(() => firings.length >= 2, 'the firing of the later save');
    expect(firings).toHaveLength(2);
    expect(firings[1]!.reason).toBe('src/c.ts changed');
  });

  it('writes in .git/, node_modules/ and git-ignored paths never fire; other files, a new folder included, do', async () => {
    execFileSync('git', ['init', '-q'], { cwd: dir });
    writeFileSync(join(dir, '.gitignore'), 'dist/\n*.log\n');
    mkdirSync(join(dir, 'pkg'));
    writeFileSync(join(dir, 'pkg', '.gitignore'), '*.gen.ts\n!keep.gen.ts\n');
    mkdirSync(join(dir, 'node_modules', 'x'), { recursive: true });
    mkdirSync(join(dir, 'dist'));
    await watch(['**/*']);
    writeFileSync(join(dir, '.git', 'HEAD'), 'ref: refs/heads/other\n');
    writeFileSync(join(dir, 'node_modules', 'x', 'index.js'), 'x\n');
    writeFileSync(join(dir, 'dist', 'out.js'), 'x\n');
    writeFileSync(join(dir, 'build.log'), 'x\n');
    writeFileSync(join(dir, 'pkg', 'a.gen.ts'), 'x\n');
    writeFileSync(join(dir, 'pkg', 'keep.gen.ts'), 'x\n');
    mkdirSync(join(dir, 'newfolder'));
    writeFileSync(join(dir, 'newfolder', 'made.txt'), 'x\n');
    await waitUntil(() => firings.length >= 1, 'a firing');
    // The first firing may come before the last writes are seen; all that fired is what counts.
    await waitUntil(() => firings.flatMap((firing) => firing.details.split('\n')).includes('newfolder/made.txt'), 'the new folder’s file');
    const fired = new Set(firings.flatMap((firing) => firing.details.split('\n')));
    expect([...fired].filter((path) => path !== 'newfolder')).toEqual(expect.arrayContaining(['pkg/keep.gen.ts', 'newfolder/made.txt']));
    for (const ignored of ['.git/HEAD', 'node_modules/x/index.js', 'dist/out.js', 'build.log', 'pkg/a.gen.ts']) expect(fired).not.toContain(ignored);
  });

  it('globs narrow what fires', async () => {
    mkdirSync(join(dir, 'src'));
    await watch(['src/*.ts'], 50);
    writeFileSync(join(dir, 'src', 'notes.md'), 'x\n');
    writeFileSync(join(dir, 'top.ts'), 'x\n');
    writeFileSync(join(dir, 'src', 'main.ts'), 'x\n');
    await waitUntil(() => firings.length >= 1, 'the firing for src/main.ts');
    expect(firings.flatMap((firing) => firing.details.split('\n'))).toEqual(['src/main.ts']);
  });

  it('a folder that does not exist is a clear error', async () => {
    await expect(watch(['missing/**/*.ts'])).rejects.toThrow(/missing does not exist/);
  });
});

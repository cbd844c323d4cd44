import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { shellPathProblem } from '../../src/main/panes/shellChoice';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-shellpath-'));
  dirs.push(dir);
  return dir;
}

describe('whether a shell path from Settings can be started', () => {
  it('accepts an executable file, a name found on PATH, and empty (the default shell)', () => {
    const bin = scratch();
    writeFileSync(join(bin, 'myshell'), '#!/bin/sh\n');
    chmodSync(join(bin, 'myshell'), 0o755);
    const env = { PATH: `/nonexistent:${bin}` };
    expect(shellPathProblem(join(bin, 'myshell'), env)).toBeUndefined();
    expect(shellPathProblem('myshell', env)).toBeUndefined();
    expect(shellPathProblem('', env)).toBeUndefined();
  });

  it('says why not: missing, a folder, not executable, not on PATH', () => {
    const dir = scratch();
    writeFileSync(join(dir, 'notes.txt'), 'hi\n');
    mkdirSync(join(dir, 'folder'));
    const env = { PATH: dir };
    expect(shellPathProblem(join(dir, 'zshh'), env)).toBe(`${join(dir, 'zshh')} does not exist`);
    expect(shellPathProblem(join(dir, 'folder'), env)).toBe(`${join(dir, 'folder')} is not a program (it is a folder or a device)`);
    expect(shellPathProblem(join(dir, 'notes.txt'), env)).toBe(`${join(dir, 'notes.txt')} is not executable (chmod +x ${join(dir, 'notes.txt')} if it is a shell)`);
    expect(shellPathProblem('notes.txt', env)).toBe('there is no program "notes.txt" on PATH; give the shell\'s full path (e.g. /usr/bin/notes.txt)');
    expect(shellPathProblem('fishh', env)).toMatch(/^there is no program "fishh" on PATH/);
  });
});

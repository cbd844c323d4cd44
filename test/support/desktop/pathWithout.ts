import { existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/**
 * A PATH of one folder holding links to every program on this process's PATH except
 * `programs`: a system where those are not installed, for tools that look them up on PATH.
 */
export function pathWithout(programs: readonly string[]): { path: string; remove(): void } {
  const folder = mkdtempSync(join(tmpdir(), 'tandem-path-'));
  for (const source of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    if (!existsSync(source)) continue;
    for (const name of readdirSync(source)) {
      if (programs.includes(name) || existsSync(join(folder, name))) continue;
      symlinkSync(join(source, name), join(folder, name));
    }
  }
  return { path: folder, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

/**
 * For a test file: a function that makes a `config.toml` in a folder of its own (holding
 * `content`, or not there when `content` is undefined); the folders go after each test.
 */
export function useTempConfigFile(prefix: string): (content?: string) => string {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  return (content) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    const file = join(dir, 'config.toml');
    if (content !== undefined) writeFileSync(file, content);
    return file;
  };
}

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Temp homes and files for shell tests. */

export function makeTempDir(label: string): string {
  return mkdtempSync(join(tmpdir(), `tandem-test-${label}-`));
}

/** Writes files (path relative to `root` → content) creating folders on the way. */
export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
}

/**
 * fish builds completions from the man pages in a background job on its first interactive
 * start in a HOME without this folder (as a user who ran fish before has it); that job outlives
 * the shell and writes into the home while the test removes it.
 */
export function skipFishCompletionJob(home: string): void {
  mkdirSync(join(home, '.local/share/fish/generated_completions'), { recursive: true });
}

export function removeDir(path: string): void {
  // Retried: a shell's background job (fish generating completions) may still be writing.
  rmSync(path, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

import { existsSync, statSync } from 'node:fs';

/** The path when it names a directory that exists, else undefined. */
export function usableDirectory(path: string | undefined): string | undefined {
  if (!path) return undefined;
  try {
    return existsSync(path) && statSync(path).isDirectory() ? path : undefined;
  } catch {
    return undefined;
  }
}

import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * Whether `program` is an executable file in one of `PATH`'s folders, as a shell's
 * `command -v` finds it, without starting a process (the agent asks before every request).
 */
export function isInstalled(program: string, path = process.env.PATH ?? ''): boolean {
  return path
    .split(delimiter)
    .filter(Boolean)
    .some((folder) => {
      const file = join(folder, program);
      try {
        accessSync(file, constants.X_OK);
        return statSync(file).isFile();
      } catch {
        return false;
      }
    });
}

export const NO_TESSERACT = 'reading text on screen needs Tesseract: install the tesseract-ocr and tesseract-ocr-eng packages';

/** Why reading text on screen is not possible here, or undefined when Tesseract is installed. */
export function missingOcr(path?: string): string | undefined {
  return isInstalled('tesseract', path) ? undefined : NO_TESSERACT;
}

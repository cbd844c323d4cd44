import { resolve } from 'node:path';

/**
 * The argv that starts this program again as `tandem`: the Electron executable (with the app's
 * folder when it runs unpackaged), or Node with the `tandem` script it was started with.
 */
export function selfCommand(): string[] | undefined {
  if (process.versions.electron) return process.defaultApp && process.argv[1] ? [process.execPath, resolve(process.argv[1])] : [process.execPath];
  const script = process.argv[1];
  return script ? [process.execPath, resolve(script)] : undefined;
}

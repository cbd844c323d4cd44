import { sep } from 'node:path';

/**
 * Where a file electron-builder unpacked from the app's asar archive really is: a path inside
 * `app.asar` becomes the same path inside `app.asar.unpacked`. Shells and worker threads
 * read files with the operating system (or with loaders that do not know asar), so they must
 * be given the unpacked copy; the file has to be listed in asarUnpack (electron-builder.yml).
 * Outside a packaged app the path is returned as it is.
 */
export function unpackedPath(path: string): string {
  const marker = `${sep}app.asar${sep}`;
  const at = path.indexOf(marker);
  return at === -1 ? path : `${path.slice(0, at)}${sep}app.asar.unpacked${sep}${path.slice(at + marker.length)}`;
}

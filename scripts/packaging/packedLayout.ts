import { getRawHeader, extractFile } from '@electron/asar';
import { getCurrentFuseWire } from '@electron/fuses';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** What electron-builder handed to fpm for the .deb (dist:check stops it there). */
export interface DebInputs {
  args: string[];
  afterInstall: string;
  afterRemove: string;
  desktopEntry: string;
}

/** Everything dist:check judges about one packed app, read from disk into plain data. */
export interface PackedLayout {
  /** Files of the app directory (linux-unpacked), app.asar.unpacked left out, posix paths. */
  appDirFiles: string[];
  /** Files of the app directory with an executable bit. */
  executables: string[];
  /** Files inside resources/app.asar. */
  asarFiles: string[];
  /** Files the asar header marks as unpacked. */
  asarUnpackedMarks: string[];
  /** Files that are in resources/app.asar.unpacked. */
  unpackedFiles: string[];
  asarBytes: number;
  unpackedBytes: number;
  /** The package.json inside the asar (undefined when missing or not JSON). */
  packageJson: Record<string, unknown> | undefined;
  /** Text of the built engine (out/main/**\/*.js and .mjs), by path inside the asar. */
  mainBundles: Record<string, string>;
  /** Fuse states in wire order (@electron/fuses FuseState bytes); undefined: no fuse wire. */
  fuses: number[] | undefined;
  /** resources/apparmor-profile, written by electron-builder's deb target. */
  apparmorProfile: string | undefined;
  deb: DebInputs | undefined;
  /** The desktop entry electron-builder made for the AppImage. */
  appImageDesktopEntry: string | undefined;
}

interface AsarNode {
  files?: Record<string, AsarNode>;
  unpacked?: boolean;
  link?: string;
}

function walkAsar(node: AsarNode, prefix: string, files: string[], unpacked: string[]): void {
  for (const [name, child] of Object.entries(node.files ?? {})) {
    const path = prefix ? `${prefix}/${name}` : name;
    if (child.files) {
      walkAsar(child, path, files, unpacked);
    } else {
      files.push(path);
      if (child.unpacked) unpacked.push(path);
    }
  }
}

function walkDir(root: string, skip: (path: string) => boolean, prefix = ''): { path: string; size: number; executable: boolean }[] {
  if (!existsSync(root)) return [];
  const found: { path: string; size: number; executable: boolean }[] = [];
  for (const entry of readdirSync(join(root, prefix), { withFileTypes: true })) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (skip(path)) continue;
    if (entry.isDirectory()) {
      found.push(...walkDir(root, skip, path));
    } else {
      const stats = statSync(join(root, path));
      found.push({ path, size: stats.size, executable: (stats.mode & 0o111) !== 0 });
    }
  }
  return found;
}

function readIfExists(path: string): string | undefined {
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
}

/** Reads the layout electron-builder packed into `appDir` (…/linux-unpacked). */
export async function readPackedLayout(
  appDir: string,
  executableName: string,
  captured: { deb?: DebInputs; appImageDesktopEntry?: string },
): Promise<PackedLayout> {
  const resources = join(appDir, 'resources');
  const asarPath = join(resources, 'app.asar');
  const unpackedDir = join(resources, 'app.asar.unpacked');
  const appDirEntries = walkDir(appDir, (path) => path === 'resources/app.asar.unpacked');
  const unpacked = walkDir(unpackedDir, () => false);

  const asarFiles: string[] = [];
  const asarUnpackedMarks: string[] = [];
  let packageJson: Record<string, unknown> | undefined;
  const mainBundles: Record<string, string> = {};
  if (existsSync(asarPath)) {
    walkAsar(getRawHeader(asarPath).header as AsarNode, '', asarFiles, asarUnpackedMarks);
    const read = (path: string): string =>
      asarUnpackedMarks.includes(path) ? readFileSync(join(unpackedDir, path), 'utf8') : extractFile(asarPath, path).toString('utf8');
    if (asarFiles.includes('package.json')) {
      try {
        packageJson = JSON.parse(read('package.json')) as Record<string, unknown>;
      } catch {
        packageJson = undefined;
      }
    }
    for (const path of asarFiles.filter((file) => /^out\/main\/.*\.m?js$/.test(file))) {
      if (asarUnpackedMarks.includes(path) && !existsSync(join(unpackedDir, path))) continue; // reported as missing
      mainBundles[path] = read(path);
    }
  }

  const executable = join(appDir, executableName);
  let fuses: number[] | undefined;
  if (existsSync(executable)) {
    try {
      const wire = (await getCurrentFuseWire(executable)) as unknown as Record<string, number | string>;
      fuses = Object.keys(wire)
        .filter((key) => /^\d+$/.test(key))
        .sort((a, b) => Number(a) - Number(b))
        .map((key) => Number(wire[key]));
    } catch {
      fuses = undefined;
    }
  }

  return {
    appDirFiles: appDirEntries.map((entry) => entry.path),
    executables: appDirEntries.filter((entry) => entry.executable).map((entry) => entry.path),
    asarFiles,
    asarUnpackedMarks,
    unpackedFiles: unpacked.map((entry) => entry.path),
    asarBytes: existsSync(asarPath) ? statSync(asarPath).size : 0,
    unpackedBytes: unpacked.reduce((sum, entry) => sum + entry.size, 0),
    packageJson,
    mainBundles,
    fuses,
    apparmorProfile: readIfExists(join(resources, 'apparmor-profile')),
    deb: captured.deb,
    appImageDesktopEntry: captured.appImageDesktopEntry,
  };
}

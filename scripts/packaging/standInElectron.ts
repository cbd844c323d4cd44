import { createPackage } from '@electron/asar';
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Electron's fuse sentinel: the fuse wire follows it in the binary (@electron/fuses). */
export const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';

/** Fuse states as bytes of the wire (@electron/fuses FuseState). */
export const FUSE_DISABLE = 0x30; // '0'
export const FUSE_ENABLE = 0x31; // '1'

/**
 * The fuse wire of an unmodified Electron 45 build, in wire order: RunAsNode on, cookie
 * encryption off, NODE_OPTIONS on, --inspect on, asar integrity off, only-load-from-asar
 * off, browser-specific V8 snapshot off, file: protocol extra privileges on, WebAssembly
 * trap handlers on. Packaging must flip the ones Tandem sets; the stand-in starts from the
 * same defaults, so a fuse left unflipped shows up as Electron's default, as it would.
 */
export const ELECTRON_DEFAULT_FUSES = '101100011';

/** What marks the stand-in's files: it is never a runnable Electron. */
export const STAND_IN_MARK = 'Tandem dist:check stand-in for an Electron build (not runnable)';

/**
 * Makes a directory shaped like an unpacked Electron build for Linux, small and offline,
 * for electron-builder's `electronDist`: an `electron` executable carrying the fuse wire
 * (so @electron/fuses flips it as in a real binary), Chromium's sandbox helper, licenses,
 * locales and the other files a Linux Electron build ships. Nothing in it runs.
 */
export async function makeStandInElectron(dir: string, fuses: string = ELECTRON_DEFAULT_FUSES): Promise<string> {
  mkdirSync(join(dir, 'locales'), { recursive: true });
  mkdirSync(join(dir, 'resources'), { recursive: true });
  const executable = join(dir, 'electron');
  const wire = Buffer.concat([
    Buffer.from(`#!/bin/sh\necho '${STAND_IN_MARK}' >&2\nexit 1\n`),
    Buffer.from(FUSE_SENTINEL, 'ascii'),
    Buffer.from([1, fuses.length]), // fuse wire version 1, then its length
    Buffer.from(fuses, 'ascii'),
    Buffer.from('\n'),
  ]);
  writeFileSync(executable, wire);
  chmodSync(executable, 0o755);
  for (const helper of ['chrome-sandbox', 'chrome_crashpad_handler']) {
    writeFileSync(join(dir, helper), `#!/bin/sh\n# ${STAND_IN_MARK}\nexit 1\n`);
    chmodSync(join(dir, helper), 0o755);
  }
  const placeholders = [
    'LICENSE',
    'LICENSES.chromium.html',
    'version',
    'icudtl.dat',
    'resources.pak',
    'chrome_100_percent.pak',
    'chrome_200_percent.pak',
    'snapshot_blob.bin',
    'v8_context_snapshot.bin',
    'libffmpeg.so',
    'libEGL.so',
    'libGLESv2.so',
    'locales/en-US.pak',
    'locales/de.pak',
  ];
  for (const file of placeholders) writeFileSync(join(dir, file), `${STAND_IN_MARK}\n`);
  // Electron's own default app, a real (tiny) archive: electron-builder hashes every .asar
  // in resources/. It leaves this one in a supplied build; electron-builder.yml's afterPack
  // removes it, and dist:check fails if it is still there.
  const defaultApp = join(dir, 'default_app');
  mkdirSync(defaultApp);
  writeFileSync(join(defaultApp, 'package.json'), JSON.stringify({ name: 'electron', main: 'main.js' }));
  writeFileSync(join(defaultApp, 'main.js'), `// ${STAND_IN_MARK}\n`);
  await createPackage(defaultApp, join(dir, 'resources', 'default_app.asar'));
  rmSync(defaultApp, { recursive: true });
  return executable;
}

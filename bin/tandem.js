#!/usr/bin/env node
// The `tandem` command. Subcommands run under plain Node from the built engine; with no
// subcommand it starts the Electron app, or explains why it cannot and what to run instead.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const built = join(root, 'out/main/cli.js');

if (!existsSync(built)) {
  console.error('tandem: the app is not built yet; run `npm run build` (or `npm start`) first.');
  process.exit(1);
}

if (args.length > 0) {
  const { main } = await import(pathToFileURL(built).href);
  await main(args);
} else {
  launchElectron();
}

/**
 * Finds the Electron binary without triggering the electron package's lazy download
 * (its `require('electron')` fetches the binary when it is missing; a launcher that
 * silently downloads ~100 MB is not what `tandem` should be).
 */
function electronBinary(packageDir) {
  const pathFile = join(packageDir, 'path.txt');
  const relativePath = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : 'electron';
  if (process.env.ELECTRON_OVERRIDE_DIST_PATH) return join(process.env.ELECTRON_OVERRIDE_DIST_PATH, relativePath);
  return join(packageDir, 'dist', relativePath);
}

/**
 * How this user started the launcher (`npm start`, `tandem`, `node bin/tandem.js`), and the
 * browser-mode command to go with it, so what we suggest can be run as typed.
 */
function commands() {
  if (process.env.npm_lifecycle_event && process.env.npm_package_name === 'tandem') return { again: 'npm start', web: 'npm run web' };
  const script = process.argv[1] ?? '';
  // Reached through a `tandem` on the PATH (npm link, a global install).
  if (basename(script) === 'tandem') return { again: 'tandem', web: 'tandem web' };
  const fromHere = relative(process.cwd(), resolve(script));
  const again = `node ${quoted(fromHere && !fromHere.startsWith('..') ? fromHere : resolve(script))}`;
  return { again, web: `${again} web` };
}

/** The lines printed when there is no Electron to start. */
function missingElectronMessage(packageDir, binary) {
  const { again, web } = commands();
  if (process.env.ELECTRON_OVERRIDE_DIST_PATH) {
    return [
      `tandem: ELECTRON_OVERRIDE_DIST_PATH is ${process.env.ELECTRON_OVERRIDE_DIST_PATH}, but there is no Electron executable at ${binary}.`,
      'Point it at an unpacked Electron build, or unset it.',
      `Browser mode needs no Electron: \`${web}\` prints an address to open in any browser.`,
    ];
  }
  if (!existsSync(join(packageDir, 'package.json'))) {
    return [
      'tandem: Electron is not installed with this copy of Tandem (no node_modules/electron: it is a development dependency).',
      'Install the desktop app from a package (.deb or AppImage, see docs/packaging.md), or run `npm install` in a checkout.',
      `Browser mode needs no Electron: \`${web}\` prints an address to open in any browser.`,
    ];
  }
  let version = '';
  try {
    version = ` ${JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')).version}`;
  } catch {
    // The version only makes the message more precise.
  }
  // Electron's own command, where npx finds it (the checkout's node_modules/.bin); the script itself from anywhere else.
  const install = resolve(process.cwd()) === resolve(root) ? 'npx install-electron' : `node ${quoted(join(packageDir, 'install.js'))}`;
  return [
    `tandem: Electron's binary is not downloaded yet (looked for ${binary}).`,
    `\`npm install\` does not fetch it. Download it once (Electron${version}, about 100 MB, needs internet access):`,
    `    ${install}`,
    `then run \`${again}\` again, or set ELECTRON_OVERRIDE_DIST_PATH to an Electron build you have.`,
    `Browser mode needs no Electron: \`${web}\` prints an address to open in any browser.`,
  ];
}

function quoted(path) {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}

function launchElectron() {
  const packageDir = join(root, 'node_modules/electron');
  const binary = electronBinary(packageDir);
  if (!existsSync(binary)) {
    console.error(missingElectronMessage(packageDir, binary).join('\n'));
    process.exit(1);
  }
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE;
  const child = spawn(binary, [root], { stdio: 'inherit', env });
  child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
}

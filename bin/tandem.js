#!/usr/bin/env node
// The `tandem` command. Subcommands run under plain Node from the built engine; with no
// subcommand it starts the Electron app, or explains in one sentence why it cannot.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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

/** Finds the Electron binary without triggering the electron package's lazy download. */
function electronBinary() {
  const packageDir = join(root, 'node_modules/electron');
  const pathFile = join(packageDir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : 'electron';
  if (process.env.ELECTRON_OVERRIDE_DIST_PATH) return join(process.env.ELECTRON_OVERRIDE_DIST_PATH, relative);
  return join(packageDir, 'dist', relative);
}

function launchElectron() {
  const binary = electronBinary();
  if (!existsSync(binary)) {
    console.error(
      `tandem: the Electron binary is not installed (looked for ${binary}); run \`npx install-electron\` ` +
        'on a machine with internet access or set ELECTRON_OVERRIDE_DIST_PATH to an Electron build, ' +
        'or use browser mode instead: `tandem web`.',
    );
    process.exit(1);
  }
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE;
  const child = spawn(binary, [root], { stdio: 'inherit', env });
  child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
}

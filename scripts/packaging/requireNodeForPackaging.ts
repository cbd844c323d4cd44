// `npm run dist` runs this first: packaging downloads Electron and electron-builder's tools
// with @electron/get and friends, which need a newer Node than Tandem itself (running, the
// tests and `tandem web` need Node 20.19; see docs/packaging.md). The minimum is the one the
// installed electron package declares, so it follows Electron upgrades.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const electronPackage = createRequire(import.meta.url).resolve('electron/package.json');
const declared = (JSON.parse(readFileSync(electronPackage, 'utf8')) as { engines?: { node?: string } }).engines?.node ?? '';
const minimum = /(\d+)\.(\d+)\.(\d+)/.exec(declared);
if (!minimum) {
  console.error(`dist: cannot read the Node version Electron's toolchain needs (electron engines: ${JSON.stringify(declared)})`);
  process.exit(1);
}
const want = minimum.slice(1, 4).map(Number);
const have = process.versions.node.split('.').map(Number);
const differs = want.findIndex((part, i) => (have[i] ?? 0) !== part);
if (differs !== -1 && (have[differs] ?? 0) < want[differs]!) {
  console.error(
    `dist: packaging needs Node ${want.join('.')} or newer (the electron package's engines: node ${declared}); this is Node ${process.versions.node}. ` +
      'Running Tandem, its tests and `tandem web` work on Node 20.19; `npm run dist:check` checks the packaging offline on either.',
  );
  process.exit(1);
}

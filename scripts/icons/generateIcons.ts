// Writes the app icon set electron-builder packs for Linux (assets/icons/NxN.png; the .deb
// installs each as /usr/share/icons/hicolor/NxN/apps/tandem.png). Run it after changing
// drawIcon.ts: `npm run icons`; the PNGs are committed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { drawIcon, ICON_SIZES } from './drawIcon';
import { encodePng } from './png';

const iconsDir = join(dirname(fileURLToPath(import.meta.url)), '../../assets/icons');
mkdirSync(iconsDir, { recursive: true });
for (const size of ICON_SIZES) {
  const file = join(iconsDir, `${size}x${size}.png`);
  writeFileSync(file, encodePng(size, drawIcon(size)));
  console.log(`wrote ${file}`);
}

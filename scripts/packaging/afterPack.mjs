// electron-builder's afterPack hook (electron-builder.yml). Electron's own default app
// (resources/default_app.asar) is dropped when electron-builder downloads Electron, but
// kept from a supplied build (electronDist): drop it either way.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';

/** @param {import('electron-builder').AfterPackContext} context */
export default async function removeDefaultApp(context) {
  if (context.electronPlatformName === 'darwin' || context.electronPlatformName === 'mas') return;
  await rm(join(context.appOutDir, 'resources', 'default_app.asar'), { force: true });
}

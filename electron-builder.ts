// electron-builder's configuration (it loads this file by name). docs/packaging.md explains
// the packages; `npm run dist:check` packs the app with this configuration and checks it.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { AfterPackContext, Configuration } from 'electron-builder';

/**
 * Set to 1 to package a build Playwright can drive: the one difference is the
 * EnableNodeCliInspectArguments fuse (on), which Playwright's Electron launcher needs
 * (`--inspect=0`). Never ship such a build: anyone could attach a debugger to it.
 */
export const PACKAGE_FOR_TESTS_ENV = 'TANDEM_PACKAGE_FOR_TESTS';

/** The mirror thread's script, bundled self-contained by electron-vite (electron.vite.config.ts). */
export const MIRROR_WORKER_GLOB = 'out/main/chunks/mirrorWorker-*.mjs';

/**
 * What goes into app.asar. electron-builder adds the production dependencies itself; the
 * exclusions trim what of them never runs.
 */
const APP_FILES = [
  'out/main/**',
  'out/preload/**',
  'out/renderer/**',
  'assets/shell-integration/**',
  'package.json',
  // tree-sitter-bash: only its .wasm grammar is loaded (src/main/safety/shellParser.ts
  // resolves tree-sitter-bash/tree-sitter-bash.wasm); ~20 MB of C sources and native
  // bindings are not.
  '!node_modules/tree-sitter-bash/{src,bindings,prebuilds,queries,node_modules}{,/**}',
  '!node_modules/tree-sitter-bash/{binding.gyp,grammar.js,tree-sitter.json}',
  '!node_modules/node-gyp-build{,/**}',
  // node-pty: the compiled pty.node and its JavaScript; not its sources, build files,
  // headers (node-addon-api) or tests.
  '!node_modules/node-pty/{src,deps,third_party,scripts,typings,node-addon-api}{,/**}',
  '!node_modules/node-pty/build/{Makefile,*.mk,config.gypi,Release/obj.target,Release/.deps}{,/**}',
  '!node_modules/node-pty/lib/**/*.test.js',
  '!node_modules/node-addon-api{,/**}',
  // web-tree-sitter: the runtime and its .wasm, not the debug build or its sources.
  '!node_modules/web-tree-sitter/{debug,src,lib}{,/**}',
  // Source maps and TypeScript sources/declarations in packages are never run.
  '!node_modules/**/*.{map,ts,mts,cts}',
];

/**
 * Electron's own default app (resources/default_app.asar) is dropped when electron-builder
 * downloads Electron, but kept from a supplied build (electronDist): drop it either way.
 */
async function removeDefaultApp(context: AfterPackContext): Promise<void> {
  if (context.electronPlatformName === 'darwin' || context.electronPlatformName === 'mas') return;
  await rm(join(context.appOutDir, 'resources', 'default_app.asar'), { force: true });
}

export function builderConfig(env: NodeJS.ProcessEnv): Configuration {
  return {
    appId: 'dev.tandem.terminal',
    productName: 'Tandem',
    // The executable is /opt/Tandem/tandem; the .deb links /usr/bin/tandem to it.
    executableName: 'tandem',
    directories: { output: 'dist', buildResources: 'assets' },
    // An Electron build supplied by hand (ELECTRON_OVERRIDE_DIST_PATH, the directory the
    // `electron` package also honours) is packaged instead of downloading one.
    ...(env.ELECTRON_OVERRIDE_DIST_PATH ? { electronDist: env.ELECTRON_OVERRIDE_DIST_PATH } : {}),
    afterPack: removeDefaultApp,
    // node-pty is N-API: the module compiled by `npm ci` works with Electron unchanged.
    npmRebuild: false,
    // Files used from outside the asar archive: a shell reads the integration scripts, the
    // kernel loads pty.node, the mirror thread's script runs as a worker (self-contained, so
    // nothing it imports has to be unpacked too), and the engine reads the WebAssembly files.
    asarUnpack: [
      'node_modules/node-pty/**',
      'assets/shell-integration/**',
      MIRROR_WORKER_GLOB,
      'node_modules/tree-sitter-bash/tree-sitter-bash.wasm',
      'node_modules/web-tree-sitter/tree-sitter.wasm',
    ],
    electronFuses: {
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: env[PACKAGE_FOR_TESTS_ENV] === '1',
      enableCookieEncryption: true,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      // The window loads tandem://app/, never file://: file: pages get no extra privileges.
      grantFileProtocolExtraPrivileges: false,
    },
    linux: {
      // The .deb first: it is the main Linux package (docs/packaging.md says why).
      target: ['deb', 'AppImage'],
      category: 'System;TerminalEmulator',
      icon: 'assets/icons',
      // The .desktop file is named after package.json's desktopName (tandem.desktop), which
      // Electron also uses as the window's app id, so the desktop links windows to it.
      syncDesktopName: true,
      synopsis: 'A terminal emulator with a built-in AI sidebar',
      // node-pty is compiled from source on Linux (`npm ci`); the prebuilt modules for
      // Windows and macOS (~58 MB) are not needed here.
      files: [...APP_FILES, '!node_modules/node-pty/prebuilds{,/**}'],
    },
    deb: {
      // electron-builder's own after-install script links /usr/bin/tandem to the executable
      // (update-alternatives) and installs an AppArmor profile that lets the executable use
      // user namespaces, so Chromium's sandbox works where they are restricted (Ubuntu 23.10
      // and later). dist:check verifies both.
      priority: 'optional',
    },
    appImage: {
      // Spelled out (electron-builder's default for its AppImage toolset): an AppImage cannot
      // carry an AppArmor profile, and where unprivileged user namespaces are restricted
      // Chromium's sandbox cannot start, so the AppImage runs without it. Prefer the .deb.
      executableArgs: ['--no-sandbox'],
    },
    mac: {
      target: ['dmg'],
      category: 'public.app-category.developer-tools',
      files: APP_FILES,
    },
    win: {
      target: ['nsis'],
      files: APP_FILES,
    },
    publish: null,
  };
}

export default builderConfig(process.env);

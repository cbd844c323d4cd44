import { FuseV1Options, FuseVersion, flipFuses, getCurrentFuseWire } from '@electron/fuses';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Configuration } from 'electron-builder';
import { afterEach, describe, expect, it } from 'vitest';
import { checkLayout, devOnlyPackages, importedSpecifiers, type LayoutExpectations } from '../../scripts/packaging/layoutRules';
import type { PackedLayout } from '../../scripts/packaging/packedLayout';
import { FUSE_DISABLE, FUSE_ENABLE, makeStandInElectron } from '../../scripts/packaging/standInElectron';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** electron-builder's own loader: the configuration as `electron-builder` sees it (electron-builder.yml and its defaults). */
const { getConfig } = createRequire(import.meta.url)('app-builder-lib/out/util/config/config.js') as {
  getConfig(projectDir: string, configPath: string | null, configFromOptions: unknown): Promise<unknown>;
};

const WORKER = 'out/main/chunks/mirrorWorker-0123abcd.mjs';
const OWNER_WORKER = 'out/main/chunks/ownerWorker-4567cdef.mjs';
const OWNER_WORKER_PATH = 'out/main/chunks/ownerWorker-Path0123.mjs';
const SQLITE_WASM = 'node_modules/node-sqlite3-wasm/dist/node-sqlite3-wasm.wasm';
const ON = FUSE_ENABLE;
const OFF = FUSE_DISABLE;

const expectations: LayoutExpectations = {
  executableName: 'tandem',
  productDir: 'Tandem',
  forTests: false,
  repoPackage: { version: '1.2.3', homepage: 'https://example.invalid/tandem', dependencies: { 'node-pty': '^1.1.0', 'tree-sitter-bash': '^0.25.1', 'web-tree-sitter': '^0.25.10' } },
  devOnlyPackages: ['react', '@xterm/headless', 'vitest'],
  iconSizes: [16, 512],
};

const unpacked = [
  'node_modules/node-pty/build/Release/pty.node',
  `node_modules/@parcel/watcher-${process.platform}-${process.arch}${process.platform === 'linux' ? '-glibc' : ''}/watcher.node`,
  'assets/shell-integration/bash/tandem.bash',
  'assets/shell-integration/bash/tandem-hooks.bash',
  'assets/shell-integration/zsh/tandem-integration.zsh',
  'assets/shell-integration/fish/tandem.fish',
  WORKER,
  OWNER_WORKER,
  OWNER_WORKER_PATH,
  'node_modules/node-sqlite3-wasm/package.json',
  'node_modules/node-sqlite3-wasm/dist/node-sqlite3-wasm.js',
  SQLITE_WASM,
  'node_modules/tree-sitter-bash/tree-sitter-bash.wasm',
  'node_modules/web-tree-sitter/tree-sitter.wasm',
];

/** A layout every rule accepts; each test breaks one thing. */
function goodLayout(): PackedLayout {
  return {
    appDirFiles: ['tandem', 'chrome-sandbox', 'LICENSE.electron.txt', 'resources/app.asar', 'resources/apparmor-profile', 'locales/en-US.pak'],
    executables: ['tandem', 'chrome-sandbox'],
    asarFiles: [
      'package.json',
      'out/main/index.js',
      'out/main/cli.js',
      'out/preload/index.cjs',
      'out/renderer/index.html',
      'out/renderer/assets/index-abc.js',
      ...unpacked,
      'node_modules/node-pty/package.json',
      'node_modules/node-pty/lib/index.js',
      'node_modules/tree-sitter-bash/package.json',
      'node_modules/tree-sitter-bash/LICENSE',
      'node_modules/web-tree-sitter/package.json',
      'node_modules/web-tree-sitter/tree-sitter.js',
    ],
    asarUnpackedMarks: [...unpacked],
    unpackedFiles: [...unpacked],
    asarBytes: 11 * 2 ** 20,
    unpackedBytes: 2 * 2 ** 20,
    packageJson: {
      name: 'tandem',
      version: '1.2.3',
      type: 'module',
      main: 'out/main/index.js',
      desktopName: 'tandem.desktop',
      dependencies: { 'node-pty': '^1.1.0', 'tree-sitter-bash': '^0.25.1', 'web-tree-sitter': '^0.25.10' },
    },
    mainBundles: {
      'out/main/index.js': 'import { main } from "./cli.js";\nimport { app } from "electron";\n',
      'out/main/cli.js': `import pty from "node-pty";\nvar version = "1.2.3";\nvar worker = join(import.meta.dirname, "./chunks/mirrorWorker-0123abcd.mjs");\n`,
      [WORKER]: 'import { parentPort } from "node:worker_threads";\nimport { setPriority } from "node:os";\nconst require = createRequire(import.meta.url);\nrequire("fs");\n',
      [OWNER_WORKER]: 'import { parentPort, workerData } from "node:worker_threads";\nconst sqlite = createRequire(import.meta.url)("node-sqlite3-wasm");\n',
      [OWNER_WORKER_PATH]: 'import { join } from "path";\nvar path = join(import.meta.dirname, "./ownerWorker-4567cdef.mjs");\n',
    },
    fuses: [OFF, ON, OFF, OFF, ON, ON, OFF, OFF, ON],
    apparmorProfile: 'abi <abi/4.0>,\ninclude <tunables/global>\n\nprofile "tandem" "/opt/Tandem/tandem" flags=(unconfined) {\n  userns,\n}\n',
    deb: {
      args: [
        '--after-install', '/tmp/after-install',
        '--package', '/tmp/out/tandem_1.2.3_amd64.deb',
        '--name', 'tandem',
        '--maintainer', 'Tandem developers <dev@tandem.invalid>',
        '--url', 'https://example.invalid/tandem',
        '/tmp/out/linux-unpacked/=/opt/Tandem',
        '/repo/assets/icons/16x16.png=/usr/share/icons/hicolor/16x16/apps/tandem.png',
        '/repo/assets/icons/512x512.png=/usr/share/icons/hicolor/512x512/apps/tandem.png',
        '/tmp/tandem.desktop=/usr/share/applications/tandem.desktop',
      ],
      afterInstall:
        "update-alternatives --install '/usr/bin/tandem' 'tandem' '/opt/Tandem/tandem' 100\nAPPARMOR_PROFILE_TARGET='/etc/apparmor.d/tandem'\napparmor_parser --replace \"$APPARMOR_PROFILE_TARGET\"\n",
      afterRemove: "update-alternatives --remove 'tandem' '/opt/Tandem/tandem'\nrm -f '/usr/bin/tandem'\n",
      desktopEntry: '[Desktop Entry]\nName=Tandem\nExec=/opt/Tandem/tandem %U\nIcon=tandem\nStartupWMClass=tandem\nCategories=System;TerminalEmulator;\n',
    },
    appImageDesktopEntry: '[Desktop Entry]\nName=Tandem\nExec=AppRun --no-sandbox %U\nIcon=tandem\n',
  };
}

function problems(layout: PackedLayout, expect: LayoutExpectations = expectations): string[] {
  return checkLayout(layout, expect).flatMap((result) => result.problems);
}

describe('dist:check layout rules', () => {
  it('accept a good layout', () => {
    expect(problems(goodLayout())).toEqual([]);
  });

  it('report repository files and development-only packages in app.asar', () => {
    const layout = goodLayout();
    layout.asarFiles.push('src/main/index.ts', 'test/unit/x.test.ts', 'README.md', 'node_modules/react/index.js', 'node_modules/@xterm/headless/package.json');
    const found = problems(layout).join('\n');
    expect(found).toMatch(/3 files that are not part of the app: src\/main, test\/unit, README\.md/);
    expect(found).toMatch(/development-only packages are in app\.asar: react, @xterm\/headless/);
  });

  it('report a missing production dependency and a missing built entry', () => {
    const layout = goodLayout();
    layout.asarFiles = layout.asarFiles.filter((file) => file !== 'node_modules/tree-sitter-bash/package.json' && file !== 'out/preload/index.cjs');
    const found = problems(layout).join('\n');
    expect(found).toContain('the dependency tree-sitter-bash is missing');
    expect(found).toContain('out/preload/index.cjs is missing from app.asar');
  });

  it("report tree-sitter-bash's sources, node-pty's build tree and source maps", () => {
    const layout = goodLayout();
    layout.asarFiles.push('node_modules/tree-sitter-bash/src/parser.c', 'node_modules/node-pty/deps/winpty/x.cc', 'node_modules/zod/index.js.map');
    const found = problems(layout).join('\n');
    expect(found).toContain('tree-sitter-bash ships more than its grammar');
    expect(found).toContain("node-pty ships sources or other platforms' modules");
    expect(found).toMatch(/files that never run are packed/);
  });

  it("report @parcel/watcher's native module left inside app.asar (file_change watchers could not load it)", () => {
    const layout = goodLayout();
    layout.asarUnpackedMarks = layout.asarUnpackedMarks.filter((file) => !file.includes('@parcel/watcher'));
    layout.unpackedFiles = layout.unpackedFiles.filter((file) => !file.includes('@parcel/watcher'));
    expect(problems(layout).join('\n')).toMatch(/@parcel\/watcher-[^/]+\/watcher\.node is missing from app\.asar\.unpacked/);
  });

  it('report a package over the size budget', () => {
    const layout = goodLayout();
    layout.asarBytes = 40 * 2 ** 20;
    expect(problems(layout).join('\n')).toMatch(/over the 30 MB budget/);
  });

  it('report what must be unpacked but is not', () => {
    const layout = goodLayout();
    layout.asarUnpackedMarks = layout.asarUnpackedMarks.filter((file) => file !== WORKER);
    layout.unpackedFiles = layout.unpackedFiles.filter((file) => file !== 'node_modules/node-pty/build/Release/pty.node');
    const found = problems(layout).join('\n');
    expect(found).toContain(`${WORKER} is missing from the files app.asar marks as unpacked`);
    expect(found).toContain('pty.node is missing from app.asar.unpacked');
  });

  it('report a history owner worker that imports a chunk, and node-sqlite3-wasm left inside the asar', () => {
    const layout = goodLayout();
    layout.mainBundles[OWNER_WORKER] += 'import { z } from "./zod-a3176e9d.js";\n';
    layout.asarUnpackedMarks = layout.asarUnpackedMarks.filter((file) => file !== SQLITE_WASM);
    const found = problems(layout).join('\n');
    expect(found).toContain(`${OWNER_WORKER} imports ./zod-a3176e9d.js`);
    expect(found).toContain(`${SQLITE_WASM} is missing from the files app.asar marks as unpacked`);
  });

  it('report a mirror worker that imports packages, or that no engine bundle loads', () => {
    const layout = goodLayout();
    layout.mainBundles[WORKER] += 'import headless from "@xterm/headless";\nconst serialize = await import("@xterm/addon-serialize");\n';
    layout.mainBundles['out/main/cli.js'] = 'var version = "1.2.3";\n';
    const found = problems(layout).join('\n');
    expect(found).toContain('imports @xterm/headless, @xterm/addon-serialize');
    expect(found).toContain('no engine bundle refers to mirrorWorker-0123abcd.mjs');
  });

  it('report the whole package.json bundled into the engine', () => {
    const layout = goodLayout();
    layout.mainBundles['out/main/cli.js'] += 'var package_default = { name: "tandem", devDependencies: { vitest: "^4" } };\n';
    expect(problems(layout).join('\n')).toContain('out/main/cli.js contains package.json');
  });

  it("report a packed package.json with development fields or the wrong main", () => {
    const layout = goodLayout();
    layout.packageJson = { ...layout.packageJson, main: 'src/main/index.ts', scripts: { test: 'vitest' }, devDependencies: { vitest: '^4' } };
    const found = problems(layout).join('\n');
    expect(found).toContain('package.json main is "src/main/index.ts"');
    expect(found).toContain('still has scripts');
    expect(found).toContain('still lists devDependencies');
  });

  it('report fuses left as Electron ships them, and the --inspect fuse by the test switch', () => {
    const layout = goodLayout();
    layout.fuses = [ON, OFF, ON, ON, OFF, OFF, OFF, ON, ON];
    expect(problems(layout)).toHaveLength(7);
    const testBuild = goodLayout();
    testBuild.fuses![3] = ON;
    expect(problems(testBuild)).toEqual(['fuse enableNodeCliInspectArguments is on, expected off (only a test build, npm run dist:e2e, turns it on)']);
    expect(problems(testBuild, { ...expectations, forTests: true })).toEqual([]);
    expect(problems(goodLayout(), { ...expectations, forTests: true })).toEqual(['fuse enableNodeCliInspectArguments is off, expected on (a test build, npm run dist:e2e)']);
  });

  it('report a .deb without a maintainer, the /usr/bin link or the AppArmor profile', () => {
    const layout = goodLayout();
    layout.deb!.args[layout.deb!.args.indexOf('--maintainer') + 1] = 'Tandem developers';
    layout.deb!.afterInstall = '#!/bin/bash\n';
    layout.apparmorProfile = undefined;
    const found = problems(layout).join('\n');
    expect(found).toContain('no maintainer with an email address');
    expect(found).toContain('does not link /usr/bin/tandem to /opt/Tandem/tandem');
    expect(found).toContain('does not install the AppArmor profile');
    expect(found).toContain('does not allow user namespaces');
  });

  it('report targets electron-builder never reached', () => {
    const layout = goodLayout();
    layout.deb = undefined;
    layout.appImageDesktopEntry = undefined;
    const found = problems(layout).join('\n');
    expect(found).toContain('never got to the .deb');
    expect(found).toContain('never got to the AppImage');
  });

  it('report an Electron default app left in resources', () => {
    const layout = goodLayout();
    layout.appDirFiles.push('resources/default_app.asar');
    expect(problems(layout).join('\n')).toContain('default_app.asar');
  });
});

describe('dist:check helpers', () => {
  it('find every kind of import in a bundle', () => {
    const code = [
      'import a from "pkg-a";',
      "import { b } from 'pkg-b';",
      'import "side-effect";',
      'const c = await import("pkg-c");',
      'const d = require("pkg-d");',
      'export { e } from "pkg-e";',
      'import { f } from "node:fs";',
    ].join('\n');
    expect(importedSpecifiers(code).sort()).toEqual(['node:fs', 'pkg-a', 'pkg-b', 'pkg-c', 'pkg-d', 'pkg-e', 'side-effect']);
  });

  it('read development-only packages from package-lock.json', () => {
    const lock = {
      packages: {
        '': {},
        'node_modules/react': { dev: true },
        'node_modules/@xterm/headless': { dev: true },
        'node_modules/zod': {},
        'node_modules/a/node_modules/b': { dev: true },
      },
    };
    expect(devOnlyPackages(lock)).toEqual(['react', '@xterm/headless']);
  });
});

describe('the stand-in Electron', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('carries a fuse wire that @electron/fuses reads and flips', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tandem-stand-in-'));
    const executable = await makeStandInElectron(dir);
    const before = (await getCurrentFuseWire(executable)) as unknown as Record<string, number>;
    expect(before[FuseV1Options.RunAsNode]).toBe(ON);
    expect(before[FuseV1Options.OnlyLoadAppFromAsar]).toBe(OFF);
    await flipFuses(executable, { version: FuseVersion.V1, [FuseV1Options.RunAsNode]: false, [FuseV1Options.OnlyLoadAppFromAsar]: true });
    const after = (await getCurrentFuseWire(executable)) as unknown as Record<string, number>;
    expect(after[FuseV1Options.RunAsNode]).toBe(OFF);
    expect(after[FuseV1Options.OnlyLoadAppFromAsar]).toBe(ON);
  });
});

describe('electron-builder configuration (electron-builder.yml, as electron-builder loads it)', () => {
  const loaded = () => getConfig(repo, null, null) as Promise<Configuration>;

  it('turns the --inspect fuse on only for a test build (npm run dist:e2e)', async () => {
    const config = await loaded();
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
    const scripts = (JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts['dist:e2e']).toContain('-c.electronFuses.enableNodeCliInspectArguments=true');
    expect(scripts.dist).not.toContain('enableNodeCliInspectArguments');
  });

  it('makes the .deb the main Linux package and installs a tandem command', async () => {
    const config = await loaded();
    expect(config.linux?.target).toEqual(['deb', 'AppImage']);
    expect(config.executableName).toBe('tandem');
    expect(config.asarUnpack).toContain('out/main/chunks/mirrorWorker-*.mjs');
    // A supplied Electron build comes from the command line (-c.electronDist=DIR), never from the file.
    expect(config.electronDist).toBeUndefined();
  });

  it('asks macOS for the microphone with a reason, and never for the camera', async () => {
    const config = await loaded();
    expect(String(config.mac?.extendInfo?.NSMicrophoneUsageDescription)).toMatch(/push-to-talk/);
    expect(config.mac?.extendInfo?.NSCameraUsageDescription).toBeUndefined();
    const entitlements = readFileSync(join(repo, String(config.mac?.entitlements)), 'utf8');
    expect(entitlements).toContain('<key>com.apple.security.device.audio-input</key>');
    expect(entitlements).not.toContain('com.apple.security.device.camera');
  });

  it("packs node-pty's prebuilt modules only for the target platform: none on Linux", async () => {
    const config = await loaded();
    // electron-builder's loader gathers the list into file sets ({ filter: [...] }).
    const patterns = (config.files as (string | { filter?: string[] })[]).flatMap((entry) => (typeof entry === 'string' ? [entry] : (entry.filter ?? [])));
    const pattern = patterns.find((file) => file.includes('node-pty/prebuilds'))!;
    const requireFromBuilder = createRequire(createRequire(import.meta.url).resolve('app-builder-lib/package.json'));
    const { minimatch } = requireFromBuilder('minimatch') as { minimatch(path: string, pattern: string, options: object): boolean };
    const excluded = (platform: string, file: string) => minimatch(`node_modules/node-pty/prebuilds/${file}`, pattern.slice(1).replace('${platform}', platform), { dot: true });
    expect(pattern.startsWith('!')).toBe(true);
    for (const file of ['darwin-x64/pty.node', 'darwin-arm64', 'win32-x64/conpty.dll']) expect(excluded('linux', file), file).toBe(true);
    expect([excluded('darwin', 'darwin-x64/pty.node'), excluded('darwin', 'win32-x64/conpty.dll')]).toEqual([false, true]);
    expect([excluded('win32', 'win32-arm64/pty.node'), excluded('win32', 'darwin-arm64/pty.node')]).toEqual([false, true]);
  });

  it("has an afterPack hook in scripts/ that drops Electron's default app", async () => {
    const config = await loaded();
    expect(config.afterPack).toBe('./scripts/packaging/afterPack.mjs');
    const { default: afterPack } = (await import(pathToFileURL(join(repo, String(config.afterPack))).href)) as { default: (context: unknown) => Promise<void> };
    const appOutDir = mkdtempSync(join(tmpdir(), 'tandem-after-pack-'));
    try {
      mkdirSync(join(appOutDir, 'resources'));
      writeFileSync(join(appOutDir, 'resources/default_app.asar'), 'x');
      writeFileSync(join(appOutDir, 'resources/app.asar'), 'x');
      await afterPack({ electronPlatformName: 'linux', appOutDir });
      expect(readdirSync(join(appOutDir, 'resources'))).toEqual(['app.asar']);
    } finally {
      rmSync(appOutDir, { recursive: true, force: true });
    }
  });
});
